/**
 * The client smoke test (smoke.ts) inside a Worker (workerd, no nodejs_compat): a request to
 * `/?url=URL&era=modern|legacy` runs it against URL and answers its one-line summary (200),
 * or what failed (500).
 */
import { smoke } from './smoke.js';

export default {
  async fetch(request: Request): Promise<Response> {
    const query = new URL(request.url).searchParams;
    const era = query.get('era') ?? '';
    try {
      return new Response(`client smoke ${era}: ${await smoke(query.get('url') ?? '', era)}`);
    } catch (error) {
      const why = error instanceof Error ? (error.stack ?? error.message) : String(error);
      return new Response(`client smoke ${era}: ${why}`, { status: 500 });
    }
  },
};
