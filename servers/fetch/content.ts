/**
 * What the fetch server does with a page: the article of an HTML page as Markdown
 * (Readability on a linkedom document, then Turndown with ATX headings, as the official
 * server's readabilipy + markdownify), robots.txt rules (robots-parser), and the official
 * paging of the text (`max_length`, `start_index`).
 */
import { loadExtraction, loadRobots } from './deps.js';
import { FetchError, type Getter } from './network.js';

/** The official text for a page Readability finds no article in. */
const NOT_SIMPLIFIED = '<error>Page failed to be simplified from HTML</error>';

/** The main content of `html` as Markdown, or {@link NOT_SIMPLIFIED}. */
async function htmlToMarkdown(html: string): Promise<string> {
  const { parseHTML, Readability, TurndownService } = await loadExtraction();
  const { document } = parseHTML(html);
  const article = new Readability(document as unknown as Document).parse();
  if (!article?.content) return NOT_SIMPLIFIED;
  const turndown = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    emDelimiter: '*',
    bulletListMarker: '*',
  });
  return turndown.turndown(article.content);
}

/** The page's text for the model and the prefix the official server puts before it. */
export async function pageContent(
  page: { text: string; contentType: string },
  raw: boolean,
): Promise<{ content: string; prefix: string }> {
  const isHtml =
    page.text.slice(0, 100).includes('<html') || page.contentType.includes('text/html') || !page.contentType;
  if (isHtml && !raw) return { content: await htmlToMarkdown(page.text), prefix: '' };
  return {
    content: page.text,
    prefix: `Content type ${page.contentType} cannot be simplified to markdown, but here is the raw content:\n`,
  };
}

/** The robots.txt URL of `url`'s origin. */
function robotsUrl(url: string): string {
  return new URL('/robots.txt', url).href;
}

/**
 * Refuses `url` when its site's robots.txt disallows it for `userAgent`, in the official
 * server's words. A robots.txt answered 401 or 403 refuses everything; another 4xx allows
 * everything; a connection failure refuses.
 */
export async function checkRobots(get: Getter, url: string, userAgent: string): Promise<void> {
  const location = robotsUrl(url);
  let page;
  try {
    page = await get(location, { userAgent });
  } catch (error) {
    if (error instanceof FetchError) throw error;
    throw new FetchError(`Failed to fetch robots.txt ${location} due to a connection issue`);
  }
  if (page.status === 401 || page.status === 403)
    throw new FetchError(
      `When fetching robots.txt (${location}), received status ${page.status} so assuming that autonomous fetching is not allowed, the user can try manually fetching by using the fetch prompt`,
    );
  if (page.status >= 400 && page.status < 500) return;
  const rules = page.text
    .split(/\r?\n/)
    .filter((line) => !line.trim().startsWith('#'))
    .join('\n');
  const robots = (await loadRobots())(location, rules);
  if (robots.isAllowed(url, userAgent) === false)
    throw new FetchError(
      `The sites robots.txt (${location}), specifies that autonomous fetching of this page is not allowed, ` +
        `<useragent>${userAgent}</useragent>\n<url>${url}</url><robots>\n${page.text}\n</robots>\n` +
        'The assistant must let the user know that it failed to view the page. The assistant may provide further guidance based on the above information.\n' +
        'The assistant can tell the user that they can try manually fetching the page by using the fetch prompt within their UI.',
    );
}

/** `text` as code points when it holds any surrogate pair (Python indexes code points). */
function codePoints(text: string): { length: number; slice(start: number, end: number): string } {
  if (!/[\uD800-\uDFFF]/.test(text)) return text;
  const points = Array.from(text);
  return { length: points.length, slice: (start, end) => points.slice(start, end).join('') };
}

/** The window of `content` the official server returns for `start` and `max`, with its notices. */
export function page(content: string, start: number, max: number): string {
  const text = codePoints(content);
  if (start >= text.length) return '<error>No more content available.</error>';
  const window = text.slice(start, start + max);
  if (window.length === 0) return '<error>No more content available.</error>';
  const taken = codePoints(window).length;
  const remaining = text.length - (start + taken);
  if (taken === max && remaining > 0)
    return `${window}\n\n<error>Content truncated. Call the fetch tool with a start_index of ${start + taken} to get more content.</error>`;
  return window;
}
