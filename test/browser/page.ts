/**
 * The page of the cross-origin browser test: mcpkit's client, bundled for the browser, as a
 * browser-based host uses it. `window.mcpRun(url, era)` connects to the server at `url`,
 * then discovers (modern), lists, calls a tool with progress, answers an elicitation as the
 * page, and listens for a tool list change; it reports what it saw, or the error message.
 */
import { createClient, streamableHttp } from '../../src/client/index.js';

/** What one run saw. */
export interface PageReport {
  discovered?: string;
  tools?: string[];
  progress?: number[];
  called?: unknown;
  elicited?: string;
  answered?: unknown;
  notified?: string;
  error?: string;
}

async function run(url: string, era: 'modern' | 'legacy'): Promise<PageReport> {
  const report: PageReport = {};
  const client = createClient({
    name: 'page',
    version: '1.0.0',
    era,
    handlers: {
      elicitation: (params) => {
        report.elicited = params.message;
        return Promise.resolve({ action: 'accept', content: { name: document.title } });
      },
    },
  });
  try {
    await client.connect(streamableHttp(url));
    if (era === 'modern') report.discovered = (await client.discover()).supportedVersions.join(',');
    report.tools = (await client.listTools()).map((tool) => tool.name);
    const progress: number[] = [];
    report.called = await client.callTool(
      'progress',
      {},
      { onprogress: (p) => void progress.push(p.progress) },
    );
    report.progress = progress;
    report.answered = await client.callTool('ask', {});
    const subscription = client.listen({ toolsListChanged: true });
    await subscription.acknowledged;
    const next = subscription[Symbol.asyncIterator]().next();
    await client.callTool('grow', {});
    report.notified = (await next).value?.method;
    subscription.close();
  } catch (error) {
    report.error = error instanceof Error ? error.message : String(error);
  } finally {
    await client.close().catch(() => undefined);
  }
  return report;
}

(globalThis as { mcpRun?: typeof run }).mcpRun = run;
