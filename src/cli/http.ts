/**
 * The CLI's seam to the Streamable HTTP client transport: the rest of the CLI asks for a
 * transport by URL and never sees HTTP options.
 */
import { streamableHttp, type FetchWrapper } from '../client/index.js';
import type { Transport } from '../core/index.js';
import { CliError } from './errors.js';

/**
 * A client transport to the Streamable HTTP endpoint at `url`, sending `headers` (from
 * `--header`) on every request and authorizing with `auth` (see auth-flow.ts); its
 * warnings go to stderr.
 * @throws CliError for a malformed URL.
 */
export async function httpTransport(
  url: string,
  headers: Record<string, string> = {},
  auth?: FetchWrapper,
): Promise<Transport> {
  try {
    return streamableHttp(url, {
      headers,
      ...(auth ? { auth } : {}),
      onWarning: (message) => process.stderr.write(`mcpkit: warning: ${message}\n`),
    });
  } catch (error) {
    throw new CliError(`\`${url}\` is not a valid URL`, { cause: error });
  }
}
