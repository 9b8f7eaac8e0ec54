/**
 * Asking the user at a terminal for what a server elicits, so `mcpkit call` (and `read`,
 * `prompt`) continue a request that needs input. Form mode: each property of
 * `requestedSchema` in turn, with its title, type, description, bounds and default; an enum
 * lists its choices (a number or the value picks one, several separated by commas for a
 * multi-select); every answer is checked against the property's schema and asked again
 * until it passes; an empty line takes the default or leaves an optional field out. ^C or
 * ^D declines.
 * The server's text is shown without control characters and cut to a bound (the peer may
 * be hostile). Prompts go to stderr, so stdout carries only the result.
 * Source: 2026-07-28 and 2025-11-25 client/elicitation ("Requested Schema", "Security
 * Considerations": make clear which server asks, let the user decline).
 */
import { createInterface, type Interface } from 'node:readline';
import type { ClientHandlers } from '../client/index.js';
import type { ElicitResult } from '../core/index.js';
import { compileJsonSchema } from '../validation/index.js';

type Elicit = NonNullable<ClientHandlers['elicitation']>;
type Value = NonNullable<ElicitResult['content']>[string];

/** Most properties of one form the CLI asks about; a form with more is declined. */
const MAX_FIELDS = 100;
/** Most characters of one text from the server that are shown. */
const MAX_SHOWN = 2000;

/** Where the questions are asked: a terminal's input and the stream prompts are written to. */
export interface Terminal {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

/** True when stdin and stdout are both terminals: someone is there to answer. */
export function atTerminal(): boolean {
  return process.stdin.isTTY === true && process.stdout.isTTY === true;
}

/**
 * An elicitation handler that asks at `terminal` (default: stdin, prompts on stderr), naming
 * `server` (how the CLI labels the server) as the one asking. Resolves with `accept` and the
 * content, or `decline` on ^C, ^D, a form it cannot show (more than 100 fields) or URL mode
 * (which the CLI does not declare).
 */
export function askOnTerminal(
  server: string,
  terminal: Terminal = { input: process.stdin, output: process.stderr },
): Elicit {
  return async (params, context) => {
    const lines = new Lines(terminal, context.signal);
    try {
      lines.say(`mcpkit: ${server} asks: ${shown(params.message)}  (^C or ^D declines)`);
      // The CLI declares form mode only (`elicitation: {}`); a URL it was not offered is not shown.
      if (params.mode === 'url') throw new Declined();
      return await fill(lines, params.requestedSchema);
    } catch (error) {
      if (!(error instanceof Declined)) throw error;
      lines.say('mcpkit: declined');
      return { action: 'decline' };
    } finally {
      lines.close();
    }
  };
}

/** The user ended the questions (^C, ^D) or the form cannot be asked. */
class Declined extends Error {}

/** One question at a time on a readline interface; ^C and end of input reject with {@link Declined}. */
class Lines {
  readonly #rl: Interface;
  readonly #output: NodeJS.WritableStream;
  #ended = false;
  #reject: ((error: Declined) => void) | undefined;

  /** `signal` ends the questions too: the request was cancelled, timed out or the connection closed. */
  constructor(terminal: Terminal, signal: AbortSignal) {
    this.#output = terminal.output;
    this.#rl = createInterface({ input: terminal.input, output: terminal.output, terminal: true, signal });
    this.#rl.on('SIGINT', () => this.#rl.close());
    this.#rl.on('close', () => {
      this.#ended = true;
      this.#reject?.(new Declined());
    });
  }

  ask(prompt: string): Promise<string> {
    if (this.#ended) return Promise.reject(new Declined());
    return new Promise((resolve, reject) => {
      this.#reject = reject;
      this.#rl.question(prompt, (answer) => {
        this.#reject = undefined;
        resolve(answer);
      });
    });
  }

  say(line: string): void {
    this.#output.write(`${line}\n`);
  }

  close(): void {
    this.#reject = undefined;
    this.#rl.close();
  }
}

/** One property of the form. */
interface Field {
  name: string;
  schema: Record<string, unknown>;
  required: boolean;
}

async function fill(lines: Lines, requestedSchema: unknown): Promise<ElicitResult> {
  const fields = fieldsOf(requestedSchema);
  const content: Record<string, Value> = {};
  for (const field of fields) {
    const value = await askField(lines, field);
    if (value !== undefined) Object.defineProperty(content, field.name, { value, enumerable: true });
  }
  return { action: 'accept', content };
}

function fieldsOf(requestedSchema: unknown): Field[] {
  const schema = isRecord(requestedSchema) ? requestedSchema : {};
  const properties = isRecord(schema.properties) ? Object.entries(schema.properties) : [];
  if (properties.length > MAX_FIELDS) throw new Declined();
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return properties.map(([name, property]) => ({
    name,
    schema: isRecord(property) ? property : {},
    required: required.has(name),
  }));
}

async function askField(lines: Lines, field: Field): Promise<Value | undefined> {
  const check = checkerOf(field.schema);
  const choices = choicesOf(field.schema);
  describe(lines, field, choices);
  for (;;) {
    const parsed = parse(field, choices, (await lines.ask(`${shown(field.name)}> `)).trim());
    if ('error' in parsed) {
      lines.say(`  ${parsed.error}`);
      continue;
    }
    if (parsed.value === undefined) return undefined;
    const issues = await check(parsed.value);
    if (issues.length === 0) return parsed.value;
    lines.say(`  ${issues.join('; ')}`);
  }
}

/** A choice of an enum field: the value sent and the title shown. */
interface Choice {
  value: string;
  title: string;
}

/** The choices of a single- or multi-select enum (titled, untitled or with `enumNames`); [] otherwise. */
function choicesOf(schema: Record<string, unknown>): Choice[] {
  const source = schema.type === 'array' && isRecord(schema.items) ? schema.items : schema;
  const titled = source.oneOf ?? source.anyOf;
  if (Array.isArray(titled))
    return titled
      .filter(isRecord)
      .filter((o) => typeof o.const === 'string')
      .map((o) => ({
        value: o.const as string,
        title: typeof o.title === 'string' ? o.title : String(o.const),
      }));
  if (!Array.isArray(source.enum)) return [];
  const names = Array.isArray(source.enumNames) ? source.enumNames : [];
  return source.enum
    .filter((v): v is string => typeof v === 'string')
    .map((value, i) => ({ value, title: typeof names[i] === 'string' ? names[i] : value }));
}

function describe(lines: Lines, field: Field, choices: readonly Choice[]): void {
  const { schema } = field;
  const title =
    typeof schema.title === 'string' && schema.title !== field.name ? ` "${shown(schema.title)}"` : '';
  const about = typeof schema.description === 'string' ? `: ${shown(schema.description)}` : '';
  const needed = field.required ? ', required' : ', optional';
  lines.say(`- ${shown(field.name)}${title} (${kindOf(schema, choices)}${bounds(schema)}${needed})${about}`);
  choices.forEach((c, i) =>
    lines.say(`    ${i + 1}) ${shown(c.title)}${c.title === c.value ? '' : ` [${shown(c.value)}]`}`),
  );
  if (schema.default !== undefined)
    lines.say(`  empty for the default: ${shown(JSON.stringify(schema.default))}`);
}

function kindOf(schema: Record<string, unknown>, choices: readonly Choice[]): string {
  if (choices.length > 0) return schema.type === 'array' ? 'choose any, separated by commas' : 'choose one';
  if (schema.type === 'boolean') return 'y/n';
  if (schema.type === 'string' && typeof schema.format === 'string') return `string, ${shown(schema.format)}`;
  return typeof schema.type === 'string' ? shown(schema.type) : 'text';
}

function bounds(schema: Record<string, unknown>): string {
  const pairs: [string, string][] = [
    ['minimum', '≥'],
    ['maximum', '≤'],
    ['minLength', 'length ≥'],
    ['maxLength', 'length ≤'],
    ['minItems', 'at least'],
    ['maxItems', 'at most'],
  ];
  return pairs
    .filter(([key]) => typeof schema[key] === 'number')
    .map(([key, sign]) => `, ${sign} ${String(schema[key])}`)
    .join('');
}

type Parsed = { value: Value | undefined } | { error: string };

/** The value a line of input stands for, before the schema check. */
function parse(field: Field, choices: readonly Choice[], text: string): Parsed {
  const { schema } = field;
  if (text === '') {
    if (schema.default !== undefined) return { value: schema.default as Value };
    return field.required ? { error: 'an answer is required' } : { value: undefined };
  }
  if (choices.length > 0) return pick(choices, text, schema.type === 'array');
  if (schema.type === 'boolean') {
    if (/^(y|yes|true)$/i.test(text)) return { value: true };
    if (/^(n|no|false)$/i.test(text)) return { value: false };
    return { error: 'answer y or n' };
  }
  if (schema.type === 'number' || schema.type === 'integer') {
    const value = Number(text);
    return Number.isFinite(value) ? { value } : { error: `${JSON.stringify(text)} is not a number` };
  }
  return { value: text };
}

function pick(choices: readonly Choice[], text: string, many: boolean): Parsed {
  const parts = many ? text.split(',').map((p) => p.trim()) : [text];
  const picked: string[] = [];
  for (const part of parts) {
    const index = /^\d+$/.test(part) ? Number(part) - 1 : -1;
    const choice =
      choices[index] ??
      choices.find((c) => c.value === part) ??
      choices.find((c) => c.title.toLowerCase() === part.toLowerCase());
    if (!choice) return { error: `choose ${many ? 'among' : 'one of'} 1–${choices.length}` };
    picked.push(choice.value);
  }
  return { value: many ? picked : picked[0] };
}

/** The issues of a value against the field's schema; none when the schema cannot be compiled here. */
function checkerOf(schema: Record<string, unknown>): (value: Value) => Promise<string[]> {
  let validate: ReturnType<typeof compileJsonSchema> | undefined;
  try {
    validate = compileJsonSchema(schema);
  } catch {
    validate = undefined; // The server checks the answer all the same.
  }
  return async (value) => {
    const outcome = await Promise.resolve(validate?.(value)).catch(() => undefined);
    return outcome && !outcome.ok ? outcome.issues : [];
  };
}

/** A text from the server as it may be shown: control and bidi characters replaced, at most {@link MAX_SHOWN} characters. */
function shown(text: unknown): string {
  const flat = String(text).replace(/[\p{Cc}\p{Bidi_Control}]/gu, '�');
  return flat.length > MAX_SHOWN ? `${flat.slice(0, MAX_SHOWN)}…` : flat;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
