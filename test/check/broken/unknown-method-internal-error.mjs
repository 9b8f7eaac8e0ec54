/** Defect: every method the server lacks is answered with -32603 (Internal error), not -32601. */
import { serve } from './base.mjs';

await serve((server) => {
  server.fallbackRequestHandler = async (request) => {
    throw new Error(`cannot handle ${request.method}`);
  };
});
