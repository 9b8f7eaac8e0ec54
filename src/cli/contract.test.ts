import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../../test/support/cli.js';
import { V2_CHANGES } from '../../test/support/forecast-server.js';

const FORECAST = join(ROOT, 'dist', 'test', 'support', 'forecast-server.js');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcpkit-contract-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('mcpkit contract', () => {
  it('snapshots a stdio server on both eras and classifies a modified one, exiting 1 on breaking changes', async () => {
    const [one, two] = await Promise.all(
      (['v1', 'v2'] as const).map((v) =>
        runCli(['contract', 'snapshot', '-o', join(dir, `${v}.json`), '--', process.execPath, FORECAST, v]),
      ),
    );
    expect([one?.code, one?.stderr, two?.code]).toEqual([0, '', 0]);
    const snapshot = JSON.parse(await readFile(join(dir, 'v1.json'), 'utf8')) as {
      mcpkitContract: number;
      eras: Record<string, { tools: Record<string, unknown> }>;
    };
    expect(snapshot.mcpkitContract).toBe(1);
    expect(Object.keys(snapshot.eras)).toEqual(['legacy', 'modern']);
    expect(snapshot.eras.modern?.tools).toHaveProperty('forecast');

    const diff = await runCli(['contract', 'diff', join(dir, 'v1.json'), join(dir, 'v2.json')]);
    expect(diff.code).toBe(1);
    for (const change of V2_CHANGES.breaking) expect(diff.stdout).toContain(change.replace(' ', '  '));
    expect(diff.stdout).toMatch(/^Breaking \(6\):/);

    const json = await runCli(['contract', 'diff', join(dir, 'v1.json'), join(dir, 'v2.json'), '--json']);
    const parsed = JSON.parse(json.stdout) as { failed: boolean; changes: { level: string; kind: string }[] };
    expect(parsed.failed).toBe(true);
    expect(parsed.changes.filter((c) => c.level === 'breaking')).toHaveLength(6);

    const same = await runCli(['contract', 'diff', join(dir, 'v1.json'), join(dir, 'v1.json')]);
    expect([same.code, same.stdout.trim()]).toEqual([0, 'No changes.']);
  });

  it('exits 0 on review changes unless --fail-on review', async () => {
    const base = JSON.parse(await readFile(join(dir, 'v1.json'), 'utf8')) as {
      eras: Record<string, { tools: Record<string, { description?: string }> }>;
    };
    base.eras.modern!.tools.forecast!.description = 'reworded';
    await writeFile(join(dir, 'reworded.json'), JSON.stringify(base));
    const paths = [join(dir, 'v1.json'), join(dir, 'reworded.json')];
    expect((await runCli(['contract', 'diff', ...paths])).code).toBe(0);
    expect((await runCli(['contract', 'diff', ...paths, '--fail-on', 'review'])).code).toBe(1);
  });

  it('refuses a file that is not a snapshot and a bad --fail-on, with exit 2', async () => {
    await writeFile(join(dir, 'junk.json'), '{"tools": []}');
    const junk = await runCli(['contract', 'diff', join(dir, 'junk.json'), join(dir, 'v1.json')]);
    expect([junk.code, junk.stderr]).toEqual([2, expect.stringMatching(/not an mcpkit contract snapshot/)]);
    const level = await runCli(['contract', 'diff', 'a', 'b', '--fail-on', 'loud']);
    expect([level.code, level.stderr]).toEqual([2, expect.stringMatching(/--fail-on must be/)]);
  });

  it('names the file and the problem for a JSON file that is not a contract, a deep one included', async () => {
    const v1 = JSON.parse(await readFile(join(dir, 'v1.json'), 'utf8')) as { eras: Record<string, unknown> };
    const cases: [string, string, RegExp][] = [
      [
        'array.json',
        '[1, 2]',
        /array\.json is not an mcpkit contract snapshot: it is an array, not an object/,
      ],
      ['null.json', 'null', /null\.json is not an mcpkit contract snapshot: it is null, not an object/],
      ['eras.json', '{"mcpkitContract":1,"eras":[]}', /eras\.json .*"eras" is not an object/],
      [
        'tools.json',
        JSON.stringify({ ...v1, eras: { modern: { ...(v1.eras.modern as object), tools: { x: 1 } } } }),
        /tools\.json .*"eras\.modern\.tools\["x"\]" is not an object/,
      ],
      ['era.json', JSON.stringify({ ...v1, eras: { future: {} } }), /"eras\.future" is not an era/],
      ['deep.json', '['.repeat(50_000) + ']'.repeat(50_000), /deep\.json is nested deeper than 256 levels/],
      ['bad.json', '{"mcpkitContract":', /bad\.json is not JSON/],
    ];
    for (const [name, text] of cases) await writeFile(join(dir, name), text);
    const runs = await Promise.all(
      cases.map(([name]) => runCli(['contract', 'diff', join(dir, name), join(dir, 'v1.json')])),
    );
    runs.forEach((run, i) =>
      expect([run.code, run.stderr]).toEqual([2, expect.stringMatching(cases[i]![2])]),
    );
  });

  it('prints --help', async () => {
    const help = await runCli(['contract', '--help']);
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('Usage: mcpkit contract snapshot')]);
  });
});
