/** The cold-start benchmark's yardstick: a Worker that echoes `params.arguments.text` of any POST, no MCP library. */
export default {
  fetch: async (request: Request): Promise<Response> => {
    const body = (await request.json()) as { id?: unknown; params?: { arguments?: { text?: unknown } } };
    const text = String(body.params?.arguments?.text ?? '');
    const result = { content: [{ type: 'text', text }], resultType: 'complete' };
    return Response.json({ jsonrpc: '2.0', id: body.id ?? null, result });
  },
};
