/**
 * The packages only the fetch server needs, optional peer dependencies of mcpkit loaded on
 * first use: undici (HTTP with a vetted DNS lookup and a proxy), linkedom and
 * @mozilla/readability (the article of a page), turndown (HTML to Markdown), robots-parser.
 */
import { LocalError } from '../../src/core/index.js';

/** The install line for every package the fetch server loads. */
const FETCH_PACKAGES = 'npm install undici linkedom @mozilla/readability turndown robots-parser';

/**
 * Runs `load` (an `import()` of `name`, written out so bundlers see it).
 * @throws LocalError `MISSING_DEPENDENCY` naming the package and the npm install line when
 *   it is not installed; any other failure as it is.
 */
async function optional<T>(name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isNotFound(error, name)) throw error;
    throw new LocalError(
      'MISSING_DEPENDENCY',
      `the fetch server needs the package ${name}: ${FETCH_PACKAGES}`,
      {
        cause: error,
      },
    );
  }
}

/** Whether `error` (or an error it wraps, as module loaders do) says `name` is not installed. */
function isNotFound(error: unknown, name: string): boolean {
  for (
    let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  ) {
    if (
      (e.code === 'ERR_MODULE_NOT_FOUND' || e.code === 'MODULE_NOT_FOUND') &&
      String(e.message).includes(name)
    )
      return true;
  }
  return false;
}

/** undici: `request`, `Agent`, `ProxyAgent`. */
export const loadUndici = () => optional('undici', () => import('undici'));

/** What HTML extraction needs: a DOM parser, Readability, Turndown. */
export async function loadExtraction() {
  const [{ parseHTML }, { Readability }, { default: TurndownService }] = await Promise.all([
    optional('linkedom', () => import('linkedom')),
    optional('@mozilla/readability', () => import('@mozilla/readability')),
    optional('turndown', () => import('turndown')),
  ]);
  return { parseHTML, Readability, TurndownService };
}

/** The rules of one robots.txt, as robots-parser reads them. */
export interface RobotsRules {
  /** True or false for a URL of the robots.txt's origin; undefined for another origin. */
  isAllowed(url: string, userAgent?: string): boolean | undefined;
}

/** robots-parser's factory (a CommonJS function export: the import's `default` is the function). */
export async function loadRobots(): Promise<(url: string, contents: string) => RobotsRules> {
  const robots = await optional('robots-parser', () => import('robots-parser'));
  return robots.default as unknown as (url: string, contents: string) => RobotsRules;
}
