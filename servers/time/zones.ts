/**
 * IANA time zone arithmetic on the platform's Intl (its tz database): offsets, wall-clock
 * parts, daylight saving time, and the ISO 8601 texts the official time server prints
 * (Python's `datetime.isoformat(timespec="seconds")`, `strftime("%A")`).
 */

/** A wall-clock reading of one instant in one zone. */
export interface ZonedTime {
  /** `YYYY-MM-DDTHH:MM:SS±HH:MM`. */
  datetime: string;
  /** English weekday name (`Monday`). */
  dayOfWeek: string;
  /** Offset from UTC in minutes (east positive). */
  offsetMinutes: number;
  /** True when the zone observes daylight saving time at that instant. */
  isDst: boolean;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * The formatter of `zone`, or undefined when the zone is unknown. Offset forms (`+05:00`)
 * are refused: the official server takes IANA names only.
 */
function formatOf(zone: string): Intl.DateTimeFormat | undefined {
  let format = formats.get(zone);
  if (format !== undefined) return format;
  if (zone.length === 0 || /^[+-]/.test(zone)) return undefined;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      weekday: 'long',
      timeZoneName: 'longOffset',
    });
  } catch {
    return undefined;
  }
  formats.set(zone, format);
  return format;
}

/** Whether `zone` is an IANA time zone name the platform knows. */
export function isKnownZone(zone: string): boolean {
  return formatOf(zone) !== undefined;
}

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: string;
  offsetMinutes: number;
}

function partsAt(zone: string, instant: number): Parts {
  const format = formatOf(zone);
  if (format === undefined) throw new RangeError(`unknown time zone ${zone}`);
  const map = new Map<string, string>(format.formatToParts(instant).map((p) => [p.type, p.value]));
  const number = (type: string): number => Number(map.get(type));
  return {
    year: number('year'),
    month: number('month'),
    day: number('day'),
    hour: number('hour'),
    minute: number('minute'),
    second: number('second'),
    weekday: map.get('weekday') ?? '',
    offsetMinutes: parseOffset(map.get('timeZoneName') ?? 'GMT'),
  };
}

/** `GMT`, `GMT+05:45`, `GMT-03:00` → minutes east of UTC. */
function parseOffset(name: string): number {
  const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
  if (match === null) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/** Offset of `zone` at `instant` (ms since the epoch), in minutes. */
function offsetAt(zone: string, instant: number): number {
  return partsAt(zone, instant).offsetMinutes;
}

/**
 * Whether `offsetMinutes` is a daylight-saving offset of `zone` in `year`: above the
 * zone's standard offset, taken as the smaller of its January and July offsets (so both
 * hemispheres work).
 */
function isDaylight(zone: string, year: number, offsetMinutes: number): boolean {
  const january = offsetAt(zone, Date.UTC(year, 0, 1));
  const july = offsetAt(zone, Date.UTC(year, 6, 1));
  return offsetMinutes > Math.min(january, july);
}

const pad = (n: number, width = 2): string => String(Math.abs(n)).padStart(width, '0');

function isoOffset(minutes: number): string {
  return `${minutes < 0 ? '-' : '+'}${pad(Math.trunc(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}

function isoText(p: Omit<Parts, 'weekday'>): string {
  const date = `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
  return `${date}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}${isoOffset(p.offsetMinutes)}`;
}

/** The reading of `instant` (ms since the epoch) in `zone`. */
export function zonedTime(zone: string, instant: number): ZonedTime {
  const parts = partsAt(zone, instant);
  return {
    datetime: isoText(parts),
    dayOfWeek: parts.weekday,
    offsetMinutes: parts.offsetMinutes,
    isDst: isDaylight(zone, parts.year, parts.offsetMinutes),
  };
}

/** A wall-clock time on a calendar day. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/**
 * The instant of wall time `wall` in `zone`, and its reading there. A time that occurs
 * twice (clocks set back) is the first occurrence; a time that never occurs (clocks set
 * forward) keeps its wall-clock value with the offset in force before the change. Both
 * follow Python's `datetime(..., tzinfo=ZoneInfo(zone))` with `fold=0` (PEP 495), which is
 * what the official server does.
 */
export function atWallTime(zone: string, wall: WallTime): { instant: number; reading: ZonedTime } {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  const before = offsetAt(zone, asUtc - 86_400_000);
  const after = offsetAt(zone, asUtc + 86_400_000);
  let offset = before;
  if (offsetAt(zone, asUtc - before * 60_000) !== before && offsetAt(zone, asUtc - after * 60_000) === after)
    offset = after;
  const weekday = new Date(asUtc).toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });
  return {
    instant: asUtc - offset * 60_000,
    reading: {
      datetime: isoText({ ...wall, second: 0, offsetMinutes: offset }),
      dayOfWeek: weekday,
      offsetMinutes: offset,
      isDst: isDaylight(zone, wall.year, offset),
    },
  };
}

/** Today's calendar day in `zone` at `instant`. */
export function dayIn(zone: string, instant: number): Pick<WallTime, 'year' | 'month' | 'day'> {
  const { year, month, day } = partsAt(zone, instant);
  return { year, month, day };
}

/**
 * The difference `to - from` in hours as the official server prints it: `+9.0h`, `-5.0h`,
 * `+0.0h` for whole hours, `+5.75h`, `-3.5h` otherwise.
 */
export function hoursText(fromMinutes: number, toMinutes: number): string {
  const hours = (toMinutes - fromMinutes) / 60;
  const sign = hours < 0 ? '-' : '+';
  if (Number.isInteger(hours)) return `${sign}${Math.abs(hours).toFixed(1)}h`;
  return `${sign}${Math.abs(hours).toFixed(2).replace(/0+$/, '').replace(/\.$/, '')}h`;
}
