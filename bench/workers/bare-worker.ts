/** The cold-start benchmark's yardstick: a Worker that answers every POST with a fixed JSON-RPC result. */
export default {
  fetch: async (request: Request): Promise<Response> => {
    const body = (await request.json()) as { id?: unknown };
    return Response.json({ jsonrpc: '2.0', id: body.id ?? null, result: { content: [], resultType: 'complete' } });
  },
};
