/**
 * The time reference server: `get_current_time` and `convert_time` over IANA time zones,
 * a drop-in for the official Python `mcp-server-time` (same tool names, input schemas,
 * annotations and result texts), served on both eras, with an `outputSchema` and
 * `structuredContent` added. Zone arithmetic uses the platform's Intl, no library.
 */
import { parseArgs } from 'node:util';
import { LocalError } from '../../src/core/index.js';
import { createServer, type McpServer } from '../../src/server/index.js';
import { atWallTime, dayIn, hoursText, isKnownZone, zonedTime, type ZonedTime } from './zones.js';

/** The server's name in discover and initialize: the official server's. */
const TIME_SERVER_NAME = 'mcp-time';

const USAGE = 'usage: mcpkit serve time [--local-timezone IANA_ZONE]';

const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

/** The JSON of one reading, as the official server's `TimeResult` model. */
const TIME_RESULT = {
  type: 'object',
  properties: {
    timezone: { type: 'string' },
    datetime: { type: 'string' },
    day_of_week: { type: 'string' },
    is_dst: { type: 'boolean' },
  },
  required: ['timezone', 'datetime', 'day_of_week', 'is_dst'],
} as const;

const CONVERSION_RESULT = {
  type: 'object',
  properties: { source: TIME_RESULT, target: TIME_RESULT, time_difference: { type: 'string' } },
  required: ['source', 'target', 'time_difference'],
} as const;

/** What failed, in the official server's words (its outer `except` prefixes every message). */
class TimeQueryError extends Error {}

/**
 * The local zone: `--local-timezone`, else `TZ` when it names an IANA zone (as Python's
 * tzlocal reads it), else the platform's zone, else `UTC`.
 * @throws LocalError `INVALID_ARGUMENT` when `--local-timezone` names no known zone.
 */
export function localZone(
  override: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string {
  if (override !== undefined) {
    if (!isKnownZone(override))
      throw new LocalError('INVALID_ARGUMENT', `--local-timezone: unknown time zone '${override}'\n${USAGE}`);
    return override;
  }
  const fromEnv = env.TZ?.replace(/^:/, '');
  if (fromEnv !== undefined && isKnownZone(fromEnv)) return fromEnv;
  const platform = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  return isKnownZone(platform) ? platform : 'UTC';
}

function parseTimeArgs(argv: readonly string[]): { localTimezone: string | undefined } {
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: { 'local-timezone': { type: 'string' } },
      strict: true,
      allowPositionals: false,
    });
    return { localTimezone: values['local-timezone'] };
  } catch (error) {
    throw new LocalError('INVALID_ARGUMENT', `${(error as Error).message}\n${USAGE}`, { cause: error });
  }
}

function zoneOrThrow(zone: string): string {
  if (!isKnownZone(zone)) throw new TimeQueryError(`Invalid timezone: 'No time zone found with key ${zone}'`);
  return zone;
}

function resultOf(zone: string, reading: ZonedTime): Record<string, unknown> {
  return {
    timezone: zone,
    datetime: reading.datetime,
    day_of_week: reading.dayOfWeek,
    is_dst: reading.isDst,
  };
}

/** `H:MM` or `HH:MM`, 24-hour clock, as Python's `strptime(time, "%H:%M")` accepts. */
function parseClock(time: string): { hour: number; minute: number } {
  const match = /^(2[0-3]|[01]\d|\d):([0-5]\d|\d)$/.exec(time);
  if (match === null) throw new TimeQueryError('Invalid time format. Expected HH:MM [24-hour format]');
  return { hour: Number(match[1]), minute: Number(match[2]) };
}

/** `get_current_time`'s result for `zone` at `now` (ms since the epoch). */
export function currentTime(zone: string, now: number): Record<string, unknown> {
  return resultOf(zone, zonedTime(zoneOrThrow(zone), now));
}

/** The arguments of `convert_time`. */
export interface Conversion {
  source: string;
  /** `HH:MM`, 24-hour clock. */
  time: string;
  target: string;
}

/**
 * `convert_time`'s result: `time` on today's date in `source` (as of `now`, ms since the
 * epoch), read in `target`, with the offset difference.
 */
export function convertTime({ source, time, target }: Conversion, now: number): Record<string, unknown> {
  zoneOrThrow(source);
  zoneOrThrow(target);
  const clock = parseClock(time);
  const from = atWallTime(source, { ...dayIn(source, now), ...clock });
  const to = zonedTime(target, from.instant);
  return {
    source: resultOf(source, from.reading),
    target: resultOf(target, to),
    time_difference: hoursText(from.reading.offsetMinutes, to.offsetMinutes),
  };
}

/** Runs `compute` and shapes its value (or failure) as the official server's result. */
function answer(compute: () => Record<string, unknown>) {
  try {
    const value = compute();
    return {
      content: [{ type: 'text' as const, text: JSON.stringify(value, null, 2) }],
      structuredContent: value,
    };
  } catch (error) {
    if (!(error instanceof TimeQueryError)) throw error;
    const text = `Error processing mcp-server-time query: ${error.message}`;
    return { content: [{ type: 'text' as const, text }], isError: true as const };
  }
}

/**
 * Creates the time server. `argv` are the official server's arguments (`--local-timezone`);
 * `env` is read for `TZ` when no zone is given.
 * @throws LocalError `INVALID_ARGUMENT` on an unknown argument or time zone (with a usage line).
 */
export async function createReferenceServer(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<McpServer> {
  const local = localZone(parseTimeArgs(argv).localTimezone, env);
  const server = createServer({ name: TIME_SERVER_NAME, version: '0.1.0', title: 'mcpkit time' });
  registerCurrentTime(server, local);
  registerConvertTime(server, local);
  return server;
}

function registerCurrentTime(server: McpServer, local: string): void {
  server.tool(
    'get_current_time',
    {
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
      outputSchema: TIME_RESULT,
      annotations: READ_ONLY,
    },
    (args) => answer(() => currentTime(String(args.timezone), Date.now())),
  );
}

function registerConvertTime(server: McpServer, local: string): void {
  server.tool(
    'convert_time',
    {
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
      outputSchema: CONVERSION_RESULT,
      annotations: READ_ONLY,
    },
    (args) =>
      answer(() =>
        convertTime(
          {
            source: String(args.source_timezone),
            time: String(args.time),
            target: String(args.target_timezone),
          },
          Date.now(),
        ),
      ),
  );
}
