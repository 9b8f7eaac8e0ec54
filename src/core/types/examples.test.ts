/**
 * The official 2026-07-28 examples against the official schema and against our types.
 * Each `test/spec/examples-2026-07-28/<TypeName>/*.json` must (a) validate against
 * `$defs/<TypeName>` and (b) type-check as `const x: <TypeName> = <example>` under the
 * project's strict compiler options, in one in-memory program.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { officialSchemaAjv } from '../../testing/wire-schema.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');
const examplesDir = join(root, 'test', 'spec', 'examples-2026-07-28');

/**
 * Examples that carry a field their definition does not declare (the schema allows extra
 * fields; our types do not, so excess-property checks catch typos). Each maps to the type
 * expression that accepts it, and why.
 */
const typeOverrides: { [example: string]: string } = {
  // An input request has no JSON-RPC id, but this example keeps one.
  'ListRootsRequest/list-roots-request.json': 'T.ListRootsRequest & { id: string }',
  // Lacks the `ttlMs` and `cacheScope` a ReadResourceResult requires; the schema accepts it
  // only through the open InputRequiredResult branch (whose `resultType` is any string).
  'ReadResourceResultResponse/read-resource-result-response.json':
    "T.JSONRPCResultResponseOf<T.LegacyReadResourceResult & { resultType: 'complete' }>",
};

interface Example {
  typeName: string;
  file: string;
  key: string;
  value: unknown;
}

function loadExamples(): Example[] {
  const out: Example[] = [];
  for (const typeName of readdirSync(examplesDir).sort()) {
    for (const file of readdirSync(join(examplesDir, typeName)).sort()) {
      if (!file.endsWith('.json')) continue;
      const text = readFileSync(join(examplesDir, typeName, file), 'utf8');
      out.push({ typeName, file, key: `${typeName}/${file}`, value: JSON.parse(text) as unknown });
    }
  }
  return out;
}

const examples = loadExamples();

/** Builds the generated source; returns it with the first line of each example's statement. */
function generateSource(list: Example[]): { text: string; starts: number[] } {
  let text = `import type * as T from './index.js';\n`;
  let line = 1;
  const starts: number[] = [];
  list.forEach((ex, i) => {
    starts.push(line);
    const type = typeOverrides[ex.key] ?? `T.${ex.typeName}`;
    const statement = `export const example${i}: ${type} = ${JSON.stringify(ex.value, null, 2)};\n`;
    text += statement;
    line += statement.split('\n').length - 1;
  });
  return { text, starts };
}

/** Parsed library and project files, shared by every program this test builds. */
const sourceCache = new Map<string, ts.SourceFile | undefined>();

/** Type-checks `text` as if it sat in src/core/types/, with the project's compiler options. */
function typeCheck(text: string): readonly ts.Diagnostic[] {
  const configPath = join(root, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: true, types: [], sourceMap: false };
  const virtualPath = join(here, '__examples__.ts');
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (p) => p === virtualPath || fileExists.call(host, p);
  host.readFile = (p) => (p === virtualPath ? text : readFile.call(host, p));
  host.getSourceFile = (p, lang, onError, fresh) =>
    p === virtualPath
      ? ts.createSourceFile(p, text, lang)
      : cachedSourceFile(p, () => getSourceFile.call(host, p, lang, onError, fresh));
  const program = ts.createProgram([virtualPath], options, host);
  return ts.getPreEmitDiagnostics(program);
}

function cachedSourceFile(path: string, load: () => ts.SourceFile | undefined): ts.SourceFile | undefined {
  if (!sourceCache.has(path)) sourceCache.set(path, load());
  return sourceCache.get(path);
}

function describeDiagnostic(d: ts.Diagnostic, list: Example[], starts: number[]): string {
  const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
  if (!d.file || d.start === undefined) return message;
  const line = d.file.getLineAndCharacterOfPosition(d.start).line;
  let index = -1;
  starts.forEach((start, i) => {
    if (start <= line) index = i;
  });
  const where = index >= 0 ? (list[index]?.key ?? '?') : d.file.fileName;
  return `${where}: ${message}`;
}

describe('official 2026-07-28 examples', () => {
  it('finds the example folders', () => {
    expect(examples.length).toBeGreaterThan(100);
  });

  it('each example is valid against its schema definition', () => {
    const ajv = officialSchemaAjv('2026-07-28');
    const failures: string[] = [];
    for (const ex of examples) {
      const validate = ajv.getSchema(`mcp#/$defs/${ex.typeName}`);
      if (!validate) {
        failures.push(`${ex.key}: no definition ${ex.typeName}`);
        continue;
      }
      if (!validate(ex.value)) failures.push(`${ex.key}: ${ajv.errorsText(validate.errors)}`);
    }
    expect(failures).toEqual([]);
  });

  it('each example type-checks against our type of the same name', () => {
    const { text, starts } = generateSource(examples);
    const diagnostics = typeCheck(text).map((d) => describeDiagnostic(d, examples, starts));
    expect(diagnostics).toEqual([]);
  });

  it('the read-resource example without caching hints is not a ReadResourceResult per the schema', () => {
    const ajv = officialSchemaAjv('2026-07-28');
    const ex = examples.find(
      (e) => e.key === 'ReadResourceResultResponse/read-resource-result-response.json',
    );
    const validate = ajv.getSchema('mcp#/$defs/ReadResourceResult');
    expect(validate?.((ex?.value as { result: unknown }).result)).toBe(false);
  });

  it('our types reject what the spec rejects: a modern result without resultType', () => {
    const bad: Example = { typeName: 'CallToolResult', file: 'bad.json', key: 'bad', value: { content: [] } };
    const { text } = generateSource([bad]);
    expect(typeCheck(text).length).toBeGreaterThan(0);
  });
});

/** Hand-written legacy messages, each named by its 2025-11-25 definition and our type. */
const legacySamples: { def: string; type: string; value: unknown }[] = [
  {
    def: 'InitializeRequest',
    type: 'InitializeRequest',
    value: {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: { roots: { listChanged: true }, elicitation: { url: {} } },
        clientInfo: { name: 'c', version: '1' },
      },
    },
  },
  {
    def: 'InitializeResult',
    type: 'InitializeResult',
    value: {
      protocolVersion: '2025-11-25',
      capabilities: { tools: { listChanged: true }, logging: {} },
      serverInfo: { name: 's', version: '1' },
      instructions: 'hi',
    },
  },
  {
    def: 'InitializedNotification',
    type: 'InitializedNotification',
    value: { jsonrpc: '2.0', method: 'notifications/initialized' },
  },
  { def: 'PingRequest', type: 'PingRequest', value: { jsonrpc: '2.0', id: 'p', method: 'ping' } },
  {
    def: 'ListToolsRequest',
    type: 'LegacyListToolsRequest',
    value: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  },
  {
    def: 'CallToolRequest',
    type: 'LegacyCallToolRequest',
    value: {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'x', _meta: { progressToken: 5 } },
    },
  },
  {
    def: 'CallToolResult',
    type: 'LegacyCallToolResult',
    value: { content: [{ type: 'text', text: 'ok' }], structuredContent: { ok: true } },
  },
  {
    def: 'SetLevelRequest',
    type: 'SetLevelRequest',
    value: { jsonrpc: '2.0', id: 3, method: 'logging/setLevel', params: { level: 'warning' } },
  },
  {
    def: 'SubscribeRequest',
    type: 'SubscribeRequest',
    value: { jsonrpc: '2.0', id: 4, method: 'resources/subscribe', params: { uri: 'file:///a' } },
  },
  {
    def: 'CancelledNotification',
    type: 'LegacyCancelledNotification',
    value: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { reason: 'gone' } },
  },
  {
    def: 'RootsListChangedNotification',
    type: 'RootsListChangedNotification',
    value: { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
  },
  {
    def: 'ElicitRequest',
    type: 'LegacyElicitRequest',
    value: {
      jsonrpc: '2.0',
      id: 5,
      method: 'elicitation/create',
      params: { mode: 'url', message: 'Sign in', url: 'https://example.com/x', elicitationId: 'e1' },
    },
  },
  {
    def: 'ElicitationCompleteNotification',
    type: 'ElicitationCompleteNotification',
    value: { jsonrpc: '2.0', method: 'notifications/elicitation/complete', params: { elicitationId: 'e1' } },
  },
  {
    def: 'URLElicitationRequiredError',
    type: 'URLElicitationRequiredError',
    value: {
      jsonrpc: '2.0',
      id: 6,
      error: {
        code: -32042,
        message: 'Sign in first',
        data: {
          elicitations: [{ mode: 'url', message: 'm', url: 'https://example.com', elicitationId: 'e2' }],
        },
      },
    },
  },
  {
    def: 'CreateMessageRequest',
    type: 'LegacyCreateMessageRequest',
    value: {
      jsonrpc: '2.0',
      id: 7,
      method: 'sampling/createMessage',
      params: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 },
    },
  },
  {
    def: 'ListRootsRequest',
    type: 'LegacyListRootsRequest',
    value: { jsonrpc: '2.0', id: 8, method: 'roots/list' },
  },
  { def: 'ListRootsResult', type: 'ListRootsResult', value: { roots: [{ uri: 'file:///w', name: 'w' }] } },
];

describe('legacy 2025-11-25 types', () => {
  it('each legacy sample is valid against its 2025-11-25 definition', () => {
    const ajv = officialSchemaAjv('2025-11-25');
    const failures = legacySamples
      .filter((s) => !ajv.getSchema(`mcp#/$defs/${s.def}`)?.(s.value))
      .map((s) => s.def);
    expect(failures).toEqual([]);
  });

  it('each legacy sample type-checks against our legacy type', () => {
    const list = legacySamples.map((s) => ({ typeName: s.type, file: s.def, key: s.def, value: s.value }));
    const { text, starts } = generateSource(list);
    expect(typeCheck(text).map((d) => describeDiagnostic(d, list, starts))).toEqual([]);
  });

  it('the method maps name the right params and results', () => {
    const text = [
      `import type * as T from './index.js';`,
      `type Eq<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;`,
      `export const a: Eq<T.ClientRequestMap['tools/call']['result'], T.CallToolResult> = true;`,
      `export const b: Eq<T.LegacyClientRequestMap['tools/call']['params'], T.LegacyCallToolRequestParams> = true;`,
      `export const c: Eq<T.LegacyServerRequestMap['elicitation/create']['result'], T.ElicitResult> = true;`,
      `export const d: Eq<T.ServerNotificationMap['notifications/progress'], T.ProgressNotificationParams> = true;`,
      `export const e: Eq<T.LegacyClientNotificationMap['notifications/initialized'], T.NotificationParams | undefined> = true;`,
    ].join('\n');
    expect(typeCheck(text).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
  });
});
