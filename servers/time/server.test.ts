/**
 * The time server against the official mcp-server-time: its tool list and result texts as
 * written in modelcontextprotocol/servers src/time/src/mcp_server_time/server.py (commit
 * 76d64c822f5125032f89eb71dbdb94e42b434821), on both eras, with DST and fractional offsets.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { expectServerConforms } from '../../src/testing/index.js';
import { ERAS, openEra, textOf, type EraClient } from '../../test/support/era-client.js';
import { convertTime, createReferenceServer, currentTime, localZone } from './server.js';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** The official tool list, with the local zone the server was started with. */
function officialTools(local: string) {
  return [
    {
      name: 'get_current_time',
      description: 'Get current time in a specific timezone',
      inputSchema: {
        type: 'object',
        properties: {
          timezone: {
            type: 'string',
            description: `IANA timezone name (e.g., 'America/New_York', 'Europe/London'). Use '${local}' as local timezone if no timezone provided by the user.`,
          },
        },
        required: ['timezone'],
      },
      annotations: READ_ONLY,
    },
    {
      name: 'convert_time',
      description: 'Convert time between timezones',
      inputSchema: {
        type: 'object',
        properties: {
          source_timezone: {
            type: 'string',
            description: `Source IANA timezone name (e.g., 'America/New_York', 'Europe/London'). Use '${local}' as local timezone if no source timezone provided by the user.`,
          },
          time: { type: 'string', description: 'Time to convert in 24-hour format (HH:MM)' },
          target_timezone: {
            type: 'string',
            description: `Target IANA timezone name (e.g., 'Asia/Tokyo', 'America/San_Francisco'). Use '${local}' as local timezone if no target timezone provided by the user.`,
          },
        },
        required: ['source_timezone', 'time', 'target_timezone'],
      },
      annotations: READ_ONLY,
    },
  ];
}

const at = (iso: string) => Date.parse(iso);

describe('time arithmetic', () => {
  it('reads summer time in the northern and the southern hemisphere', () => {
    expect(currentTime('Europe/London', at('2024-07-01T12:00:00Z'))).toEqual({
      timezone: 'Europe/London',
      datetime: '2024-07-01T13:00:00+01:00',
      day_of_week: 'Monday',
      is_dst: true,
    });
    expect(currentTime('Europe/London', at('2024-01-15T12:00:00Z'))).toMatchObject({
      datetime: '2024-01-15T12:00:00+00:00',
      is_dst: false,
    });
    expect(currentTime('Australia/Sydney', at('2024-01-15T00:00:00Z'))).toMatchObject({
      datetime: '2024-01-15T11:00:00+11:00',
      is_dst: true,
    });
    expect(currentTime('Australia/Sydney', at('2024-07-15T00:00:00Z'))).toMatchObject({
      datetime: '2024-07-15T10:00:00+10:00',
      is_dst: false,
    });
  });

  it('converts across the date line with whole-hour differences printed as +14.0h', () => {
    expect(
      convertTime(
        { source: 'America/New_York', time: '16:30', target: 'Asia/Tokyo' },
        at('2024-01-15T12:00:00Z'),
      ),
    ).toEqual({
      source: {
        timezone: 'America/New_York',
        datetime: '2024-01-15T16:30:00-05:00',
        day_of_week: 'Monday',
        is_dst: false,
      },
      target: {
        timezone: 'Asia/Tokyo',
        datetime: '2024-01-16T06:30:00+09:00',
        day_of_week: 'Tuesday',
        is_dst: false,
      },
      time_difference: '+14.0h',
    });
    expect(
      convertTime({ source: 'UTC', time: '00:00', target: 'UTC' }, at('2024-01-15T12:00:00Z'))
        .time_difference,
    ).toBe('+0.0h');
  });

  it('prints fractional differences as Python does: +5.75h, -5.5h', () => {
    const nepal = convertTime(
      { source: 'Europe/London', time: '12:00', target: 'Asia/Kathmandu' },
      at('2024-01-15T12:00:00Z'),
    );
    expect(nepal).toMatchObject({
      target: { datetime: '2024-01-15T17:45:00+05:45' },
      time_difference: '+5.75h',
    });
    const india = convertTime(
      { source: 'Asia/Kolkata', time: '12:00', target: 'Europe/London' },
      at('2024-01-15T12:00:00Z'),
    );
    expect(india).toMatchObject({
      target: { datetime: '2024-01-15T06:30:00+00:00' },
      time_difference: '-5.5h',
    });
  });

  it('takes today in the source zone, which may already be tomorrow in UTC', () => {
    const result = convertTime(
      { source: 'Asia/Tokyo', time: '09:00', target: 'UTC' },
      at('2024-01-15T23:30:00Z'),
    );
    expect(result).toMatchObject({
      source: { datetime: '2024-01-16T09:00:00+09:00', day_of_week: 'Tuesday' },
    });
  });

  it('keeps a time skipped by the spring change with the offset before it (fold=0)', () => {
    const result = convertTime(
      { source: 'America/New_York', time: '02:30', target: 'UTC' },
      at('2024-03-10T12:00:00Z'),
    );
    expect(result).toMatchObject({
      source: { datetime: '2024-03-10T02:30:00-05:00', is_dst: false },
      target: { datetime: '2024-03-10T07:30:00+00:00' },
      time_difference: '+5.0h',
    });
  });

  it('takes the first of a time repeated by the autumn change (fold=0)', () => {
    const result = convertTime(
      { source: 'America/New_York', time: '01:30', target: 'UTC' },
      at('2024-11-03T12:00:00Z'),
    );
    expect(result).toMatchObject({
      source: { datetime: '2024-11-03T01:30:00-04:00', is_dst: true },
      target: { datetime: '2024-11-03T05:30:00+00:00' },
      time_difference: '+4.0h',
    });
  });

  it('finds the local zone from --local-timezone, then TZ, then the platform', () => {
    expect(localZone('Asia/Tokyo', { TZ: 'Europe/Paris' })).toBe('Asia/Tokyo');
    expect(localZone(undefined, { TZ: ':Europe/Paris' })).toBe('Europe/Paris');
    expect(localZone(undefined, { TZ: 'Not/AZone' })).toBe(
      new Intl.DateTimeFormat().resolvedOptions().timeZone,
    );
  });
});

describe('time server arguments', () => {
  it('refuses an unknown option, a positional and an unknown zone with INVALID_ARGUMENT and a usage line', async () => {
    for (const argv of [['--zone', 'UTC'], ['UTC'], ['--local-timezone', 'Mars/Olympus']])
      await expect(createReferenceServer(argv, {})).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining('usage: mcpkit serve time'),
      });
  });
});

describe.each(ERAS)('time server on the %s era', (era) => {
  let client: EraClient;
  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2024-03-10T12:00:00Z'));
    client = await openEra(await createReferenceServer(['--local-timezone', 'Europe/Berlin'], {}), era);
  });
  afterEach(async () => {
    vi.useRealTimers();
    await client.close();
    expect(client.harness.violations).toEqual([]);
  });

  it('lists the official tools, with the local zone in the descriptions and an outputSchema added', async () => {
    const tools = await client.listTools();
    expect(tools.map(({ outputSchema: _, ...tool }) => tool)).toEqual(officialTools('Europe/Berlin'));
    expect(tools.every((t) => typeof t.outputSchema === 'object')).toBe(true);
  });

  it('answers get_current_time with the official two-space JSON text and the same structuredContent', async () => {
    const result = await client.call('get_current_time', { timezone: 'America/New_York' });
    const expected = {
      timezone: 'America/New_York',
      datetime: '2024-03-10T08:00:00-04:00',
      day_of_week: 'Sunday',
      is_dst: true,
    };
    expect(textOf(result)).toBe(JSON.stringify(expected, null, 2));
    expect(result.structuredContent).toEqual(expected);
  });

  it('answers convert_time on the day clocks change', async () => {
    const result = await client.call('convert_time', {
      source_timezone: 'America/New_York',
      time: '9:05',
      target_timezone: 'Europe/Berlin',
    });
    expect(result.structuredContent).toMatchObject({
      source: { datetime: '2024-03-10T09:05:00-04:00', is_dst: true },
      target: { datetime: '2024-03-10T14:05:00+01:00', is_dst: false },
      time_difference: '+5.0h',
    });
  });

  it('reports a bad zone and a bad time as the official server words them', async () => {
    const zone = await client.call('get_current_time', { timezone: 'Mars/Olympus' });
    expect(zone.isError).toBe(true);
    expect(textOf(zone)).toBe(
      "Error processing mcp-server-time query: Invalid timezone: 'No time zone found with key Mars/Olympus'",
    );
    const time = await client.call('convert_time', {
      source_timezone: 'UTC',
      time: '25:00',
      target_timezone: 'UTC',
    });
    expect(time.isError).toBe(true);
    expect(textOf(time)).toBe(
      'Error processing mcp-server-time query: Invalid time format. Expected HH:MM [24-hour format]',
    );
  });
});

describe('time server and mcpkit check', () => {
  it('is clean on both eras', async () => {
    const server = await createReferenceServer([], { TZ: 'UTC' });
    await expectServerConforms(server, {
      failOn: 'warning',
      calls: [
        { tool: 'get_current_time', args: { timezone: 'UTC' } },
        {
          tool: 'convert_time',
          args: { source_timezone: 'UTC', time: '12:00', target_timezone: 'Asia/Tokyo' },
        },
      ],
    });
  });
});
