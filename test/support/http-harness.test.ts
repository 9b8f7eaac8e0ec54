import { describe, expect, it } from 'vitest';
import { SseReader, modernPost } from './http-harness.js';

describe('the HTTP test harness', () => {
  it('builds modern requests whose headers mirror the body', () => {
    const request = modernPost('tools/call', { name: 'echo', arguments: { text: 'x' } });
    expect(request.headers.get('mcp-method')).toBe('tools/call');
    expect(request.headers.get('mcp-name')).toBe('echo');
    expect(request.headers.get('mcp-protocol-version')).toBe('2026-07-28');
  });

  it('reads SSE events and comments from a body', async () => {
    const body = new Response(':\n\nid: 1\ndata: {"a":1}\n\ndata: x\n\n');
    const reader = new SseReader(body);
    await reader.finished();
    expect(reader.events).toEqual([
      { id: '1', data: '{"a":1}' },
      { id: undefined, data: 'x' },
    ]);
    expect(reader.comments).toEqual(['']);
  });
});
