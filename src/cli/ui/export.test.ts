import { distance } from 'fastest-levenshtein';
import { describe, expect, it } from 'vitest';
import { parseRecording } from '../record/format.js';
import { ReplayBook } from '../replay/book.js';
import { InspectorBridge } from './bridge.js';

describe('the inspector history export', () => {
  it('is a recording in the record/replay format that replays the calls it saw', async () => {
    const bridge = new InspectorBridge();
    await bridge.connect({ kind: 'builtin' }, 'legacy');
    const result = await bridge.client.callTool('echo', { text: 'exported', token: 'secret-value' });
    const text = bridge.exportHistory();
    await bridge.disconnect();

    expect(text).not.toContain('secret-value');
    const { header, messages } = parseRecording(text);
    expect(header).toMatchObject({
      mcpkitRecording: 1,
      transport: 'stdio',
      server: 'the built-in everything server',
    });
    expect(messages[0]).toMatchObject({ from: 'client', message: { method: 'initialize' } });
    const book = new ReplayBook(messages, distance);
    const [reply] = book.answer({
      id: 7,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'exported', token: 'another secret' } },
    });
    expect(reply?.message).toEqual({ jsonrpc: '2.0', id: 7, result });
  }, 30_000);
});
