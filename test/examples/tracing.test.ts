/** The tracing example runs as documented and prints one trace for the tool call. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface Line {
  kind: string;
  name: string;
  trace: string;
  span: string;
  parent: string;
}

function parse(stdout: string): Line[] {
  return stdout
    .trim()
    .split('\n')
    .map((text) => {
      const match = /^(\w+) (.+) trace=(\w+) span=(\w+) parent=(\w+)$/.exec(text);
      if (!match) throw new Error(`unexpected line: ${text}`);
      const [, kind = '', name = '', trace = '', span = '', parent = ''] = match;
      return { kind, name, trace, span, parent };
    });
}

it('examples/tracing prints client → server → notification back as one trace', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'dist/examples/tracing.js')]);
  const lines = parse(stdout);
  const find = (kind: string, name: string): Line => {
    const line = lines.find((l) => l.kind === kind && l.name === name);
    if (!line) throw new Error(`no ${kind} ${name} in:\n${stdout}`);
    return line;
  };
  const call = find('CLIENT', 'tools/call greet');
  const served = find('SERVER', 'tools/call greet');
  const sent = find('CLIENT', 'notifications/message');
  const received = find('SERVER', 'notifications/message');
  expect(call.parent).toBe('root');
  expect(served.parent).toBe(call.span);
  expect(sent.parent).toBe(served.span);
  expect(received.parent).toBe(sent.span);
  for (const line of [served, sent, received]) expect(line.trace).toBe(call.trace);
});
