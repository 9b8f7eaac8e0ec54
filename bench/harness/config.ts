/**
 * The knobs of one invocation, from the command line: `--quick` for a short development
 * run, `--cpu-prof` to profile mcpkit's servers, `--only a,b` to run some sections.
 */

/** Sizes and durations of one invocation. */
export interface Config {
  quick: boolean;
  cpuProf: boolean;
  /** Section tags to run (see {@link wanted}); undefined runs everything. */
  only: ReadonlySet<string> | undefined;
  /** Measured runs per figure (alternating between implementations). */
  runs: number;
  /** Length of one measured load run, in milliseconds. */
  durationMs: number;
  /** Warm-up load per server before measuring, in milliseconds. */
  warmupMs: number;
  /** Calls in flight measured for each mode. */
  inFlight: readonly number[];
  /** Spawns per implementation for startup time (best of) and idle RSS (median). */
  startupTries: number;
  /** Legacy HTTP sessions opened for the RSS growth figure. */
  sessions: number;
  /** Idle `subscriptions/listen` streams opened for the fan-out figure. */
  listeners: number;
  /** Trigger calls (each fans out to every listener). */
  triggers: number;
}

/** Parses `argv` (without node and script). @throws Error on an unknown flag. */
export function parseArgs(argv: readonly string[]): Config {
  const quick = argv.includes('--quick');
  const onlyAt = argv.indexOf('--only');
  const onlyArg = onlyAt === -1 ? undefined : argv[onlyAt + 1];
  const known = new Set(['--quick', '--cpu-prof', '--only', onlyArg]);
  const unknown = argv.find((a) => !known.has(a));
  if (unknown !== undefined) throw new Error(`unknown argument ${unknown}; see bench/README.md`);
  return {
    quick,
    cpuProf: argv.includes('--cpu-prof'),
    only: onlyArg === undefined ? undefined : new Set(onlyArg.split(',').map((s) => s.trim().toLowerCase())),
    runs: quick ? 3 : 5,
    durationMs: quick ? 150 : 600,
    warmupMs: quick ? 100 : 400,
    inFlight: [1, 16, 64],
    startupTries: quick ? 2 : 7,
    sessions: quick ? 200 : 1000,
    listeners: 100,
    triggers: quick ? 20 : 100,
  };
}

/** Whether a section tagged `tags` runs under `--only` (every section runs without it). */
export function wanted(config: Config, tags: readonly string[]): boolean {
  return config.only === undefined || tags.some((t) => config.only?.has(t));
}
