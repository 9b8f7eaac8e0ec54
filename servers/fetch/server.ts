/**
 * The fetch reference server: the `fetch` tool and prompt of the official Python
 * `mcp-server-fetch` (same names, input schema, defaults and result texts), served on both
 * eras, with progress while a page downloads and the network rules of network.ts. Its
 * packages (undici, linkedom, @mozilla/readability, turndown, robots-parser) are optional
 * peer dependencies of mcpkit, loaded when the server is created.
 */
import { parseArgs } from 'node:util';
import { LocalError } from '../../src/core/index.js';
import {
  createServer,
  type McpServer,
  type RequestContext,
  type ToolResult,
} from '../../src/server/index.js';
import { checkRobots, page, pageContent } from './content.js';
import { loadExtraction, loadRobots } from './deps.js';
import { createGetter, FetchError, type Getter } from './network.js';

/** The server's name in discover and initialize: the official server's. */
const FETCH_SERVER_NAME = 'mcp-fetch';

/** User-Agent of tool calls (the model fetching on its own). */
export const USER_AGENT_AUTONOMOUS =
  'ModelContextProtocol/1.0 (Autonomous; +https://github.com/modelcontextprotocol/servers)';
/** User-Agent of the prompt (the user asking for the page). */
export const USER_AGENT_MANUAL =
  'ModelContextProtocol/1.0 (User-Specified; +https://github.com/modelcontextprotocol/servers)';

const USAGE =
  'usage: mcpkit serve fetch [--user-agent UA] [--ignore-robots-txt] [--proxy-url URL] [--allow-private-network]';

/** The input schema, as pydantic writes the official server's `Fetch` model. */
export const FETCH_INPUT_SCHEMA = {
  description: 'Parameters for fetching a URL.',
  properties: {
    url: { description: 'URL to fetch', format: 'uri', minLength: 1, title: 'Url', type: 'string' },
    max_length: {
      default: 5000,
      description: 'Maximum number of characters to return.',
      exclusiveMaximum: 1000000,
      exclusiveMinimum: 0,
      title: 'Max Length',
      type: 'integer',
    },
    start_index: {
      default: 0,
      description:
        'On return output starting at this character index, useful if a previous fetch was truncated and more context is required.',
      minimum: 0,
      title: 'Start Index',
      type: 'integer',
    },
    raw: {
      default: false,
      description: 'Get the actual HTML content of the requested page, without simplification.',
      title: 'Raw',
      type: 'boolean',
    },
  },
  required: ['url'],
  title: 'Fetch',
  type: 'object',
} as const;

/** The tool's description, the official one word for word. */
export const FETCH_DESCRIPTION = `Fetches a URL from the internet and optionally extracts its contents as markdown.

Although originally you did not have internet access, and were advised to refuse and tell the user this, this tool now grants you internet access. Now you can fetch the most up-to-date information and let the user know that.`;

interface FetchConfig {
  userAgent: string | undefined;
  ignoreRobots: boolean;
  proxyUrl: string | undefined;
  allowPrivate: boolean;
}

function parseFetchArgs(argv: readonly string[]): FetchConfig {
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: {
        'user-agent': { type: 'string' },
        'ignore-robots-txt': { type: 'boolean' },
        'proxy-url': { type: 'string' },
        'allow-private-network': { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    });
    const proxyUrl = values['proxy-url'];
    if (proxyUrl !== undefined && !URL.canParse(proxyUrl))
      throw new Error(`--proxy-url: not a URL: ${proxyUrl}`);
    return {
      userAgent: values['user-agent'],
      ignoreRobots: values['ignore-robots-txt'] === true,
      proxyUrl,
      allowPrivate: values['allow-private-network'] === true,
    };
  } catch (error) {
    throw new LocalError('INVALID_ARGUMENT', `${(error as Error).message}\n${USAGE}`, { cause: error });
  }
}

/** A failure's text: ours as it is, a network error as the official `Failed to fetch <url>: <repr>`. */
function failureText(url: string, error: unknown): string {
  if (error instanceof FetchError) return error.message;
  let cause = error as { name?: string; message?: string; cause?: unknown } | undefined;
  while (cause?.cause instanceof Error && !(cause instanceof FetchError)) cause = cause.cause as typeof cause;
  if (cause instanceof FetchError) return cause.message;
  return `Failed to fetch ${url}: ${cause?.name ?? 'Error'}(${JSON.stringify(cause?.message ?? String(error))})`;
}

/** Gets `url` and its content for the model (the official `fetch_url`). */
async function fetchUrl(
  get: Getter,
  url: string,
  options: { userAgent: string; raw: boolean; ctx?: RequestContext },
) {
  let received;
  try {
    received = await get(url, {
      userAgent: options.userAgent,
      signal: options.ctx?.signal,
      onProgress: (bytes, total) =>
        options.ctx?.progress(bytes, total === undefined ? { message: 'bytes received' } : { total }),
    });
  } catch (error) {
    throw new FetchError(failureText(url, error));
  }
  if (received.status >= 400) throw new FetchError(`Failed to fetch ${url} - status code ${received.status}`);
  return pageContent(received, options.raw);
}

/**
 * Creates the fetch server. `argv` are the official server's arguments (`--user-agent`,
 * `--ignore-robots-txt`, `--proxy-url`) and mcpkit's `--allow-private-network`.
 * @throws LocalError `INVALID_ARGUMENT` on a bad argument (with a usage line);
 *   `MISSING_DEPENDENCY` when one of the server's packages is not installed.
 */
export async function createReferenceServer(
  argv: readonly string[],
  _env: Readonly<Record<string, string | undefined>>,
): Promise<McpServer> {
  const config = parseFetchArgs(argv);
  const get = await createGetter({ allowPrivate: config.allowPrivate, proxyUrl: config.proxyUrl });
  await Promise.all([loadExtraction(), loadRobots()]);
  const server = createServer({ name: FETCH_SERVER_NAME, version: '0.1.0', title: 'mcpkit fetch' });
  registerTool(server, get, config);
  registerPrompt(server, get, config);
  return server;
}

function registerTool(server: McpServer, get: Getter, config: FetchConfig): void {
  const userAgent = config.userAgent ?? USER_AGENT_AUTONOMOUS;
  server.tool(
    'fetch',
    { description: FETCH_DESCRIPTION, inputSchema: FETCH_INPUT_SCHEMA },
    async (args, ctx): Promise<ToolResult> => {
      const url = new URL(String(args.url)).href;
      try {
        if (!config.ignoreRobots) await checkRobots(get, url, userAgent);
        const { content, prefix } = await fetchUrl(get, url, { userAgent, raw: args.raw === true, ctx });
        const window = page(content, Number(args.start_index ?? 0), Number(args.max_length ?? 5000));
        return { content: [{ type: 'text', text: `${prefix}Contents of ${url}:\n${window}` }] };
      } catch (error) {
        if (!(error instanceof FetchError)) throw error;
        return { content: [{ type: 'text', text: error.message }], isError: true };
      }
    },
  );
}

function registerPrompt(server: McpServer, get: Getter, config: FetchConfig): void {
  const userAgent = config.userAgent ?? USER_AGENT_MANUAL;
  server.prompt(
    'fetch',
    {
      description: 'Fetch a URL and extract its contents as markdown',
      arguments: [{ name: 'url', description: 'URL to fetch', required: true }],
    },
    async (args) => {
      const url = String(args.url);
      try {
        const { content, prefix } = await fetchUrl(get, url, { userAgent, raw: false });
        const text = prefix + content;
        return {
          description: `Contents of ${url}`,
          messages: [{ role: 'user', content: { type: 'text', text } }],
        };
      } catch (error) {
        if (!(error instanceof FetchError)) throw error;
        const text = error.message;
        return {
          description: `Failed to fetch ${url}`,
          messages: [{ role: 'user', content: { type: 'text', text } }],
        };
      }
    },
  );
}
