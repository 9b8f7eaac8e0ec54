import { beforeAll, describe, expect, it } from 'vitest';
import { createEverythingServer } from '../../servers/everything/server.js';
import { forecastServer, V2_CHANGES } from '../../test/support/forecast-server.js';
import {
  contractMatchers,
  diffContracts,
  formatContractChanges,
  serverContract,
  type Contract,
} from '../testing/index.js';

expect.extend(contractMatchers);

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- must match vitest's own declaration
  interface Matchers<T = any> {
    toMatchContract(baseline: Contract, options?: { failOn?: 'breaking' | 'review' | 'info' }): T;
  }
}

let v1: Contract;
let v2: Contract;
beforeAll(async () => {
  [v1, v2] = await Promise.all([serverContract(forecastServer(1)), serverContract(forecastServer(2))]);
});

describe('contract snapshots', () => {
  it('describe both eras of the everything server, sorted and stable', async () => {
    const again = await serverContract(createEverythingServer());
    const first = await serverContract(createEverythingServer());
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    expect(Object.keys(first.eras)).toEqual(['legacy', 'modern']);
    const modern = first.eras.modern!;
    expect(modern.protocolVersion).toBe('2026-07-28');
    expect(Object.keys(modern.tools)).toContain('echo');
    expect(Object.keys(modern.tools)).toEqual([...Object.keys(modern.tools)].sort());
    expect(Object.keys(first.eras.legacy!.tools)).toEqual(Object.keys(modern.tools));
    expect(diffContracts(first, again)).toEqual([]);
  });
});

describe('diffContracts', () => {
  const changesOf = () => diffContracts(v1, v2);
  const seen = (level: string) =>
    changesOf()
      .filter((c) => c.level === level && c.path.startsWith('tools.'))
      .map((c) => `${c.kind} ${c.path}`);

  it('reports each breaking kind: removed tool, new required argument, narrowed type, removed enum value, output field removed, stricter schema', () => {
    expect(seen('breaking').sort()).toEqual([...V2_CHANGES.breaking].sort());
  });

  it('puts wording, annotations and new optional arguments under review, additions under info', () => {
    expect(seen('review').sort()).toEqual([...V2_CHANGES.review].sort());
    expect(seen('info').sort()).toEqual([...V2_CHANGES.info].sort());
  });

  it('reports a change seen on both eras once, naming both', () => {
    const removed = changesOf().find((c) => c.kind === 'tool-removed');
    expect(removed?.eras.sort()).toEqual(['legacy', 'modern']);
  });

  it('sees the reverse direction as additions and loosenings, not breaks of the same kind', () => {
    const back = diffContracts(v2, v1);
    const kinds = back.filter((c) => c.level === 'breaking').map((c) => `${c.kind} ${c.path}`);
    expect(kinds).toContain('tool-removed tools.alerts');
    expect(kinds).not.toContain('tool-removed tools.echo');
    expect(back.find((c) => c.path === 'tools.echo')?.level).toBe('info');
    expect(back.find((c) => c.path === 'tools.forecast.outputSchema.properties.humidity')?.level).toBe(
      'info',
    );
  });

  it('classifies output widening and a dropped era as breaking', () => {
    const wider = structuredClone(v1);
    const tool = wider.eras.modern!.tools.forecast!;
    (tool.outputSchema!.properties as Record<string, { type: unknown }>).temperature!.type = [
      'number',
      'string',
    ];
    delete wider.eras.legacy;
    const found = diffContracts(v1, wider).map((c) => `${c.level} ${c.kind} ${c.path}`);
    expect(found).toContain(
      'breaking output-type-widened tools.forecast.outputSchema.properties.temperature',
    );
    expect(found).toContain('breaking era-removed eras.legacy');
  });

  it('formats the changes grouped by level with a count line', () => {
    const text = formatContractChanges(changesOf());
    expect(text).toMatch(/^Breaking \(\d+\):\n {2}/);
    expect(text).toContain('tool-removed  tools.echo: tool `echo` removed [legacy, modern]');
    expect(text).toMatch(/\n\d+ breaking, \d+ to review, \d+ info$/);
  });
});

describe('toMatchContract', () => {
  it('passes for an unchanged server and fails with the diff for a breaking one', () => {
    expect(v1).toMatchContract(v1);
    expect(() => expect(v2).toMatchContract(v1)).toThrow(/tool-removed {2}tools\.echo/);
  });

  it('fails on review changes only with failOn review', () => {
    const reworded = structuredClone(v1);
    reworded.eras.modern!.tools.forecast!.description = 'Forecast';
    expect(reworded).toMatchContract(v1);
    expect(() => expect(reworded).toMatchContract(v1, { failOn: 'review' })).toThrow(/description-changed/);
  });
});
