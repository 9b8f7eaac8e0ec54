/**
 * The client under test for the official MCP conformance suite (client mode). The suite
 * runs `node dist/test/conformance/client.js <mock server URL>` once per scenario with
 * MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_PROTOCOL_VERSION and, for some scenarios,
 * MCP_CONFORMANCE_CONTEXT set; see scripts/conformance/README.md "What the client under
 * test must do". Exits 0 when the scenario ran through, 1 with the error on stderr.
 */
import { createClient, streamableHttp, type Client, type ClientHandlers } from '../../src/client/index.js';
import type { ElicitResult } from '../../src/core/types/index.js';
import { oauthClient, type OAuthClientOptions } from '../../src/auth/index.js';

type Json = { [key: string]: unknown };
type Scenario = (client: Client, context: Json) => Promise<void>;

const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const revision = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? '2026-07-28';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Json;
const url = process.argv[process.argv.length - 1] ?? '';

/** A plausible answer for one field of an elicitation form. */
function plausible(schema: Json): unknown {
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  switch (schema.type) {
    case 'boolean':
      return true;
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'array':
      return [];
    default:
      return 'Alice';
  }
}

function plausibleContent(requested: unknown): NonNullable<ElicitResult['content']> {
  const properties = ((requested as Json | undefined)?.properties ?? {}) as Record<string, Json>;
  const content: Json = {};
  for (const [name, schema] of Object.entries(properties)) content[name] = plausible(schema);
  return content as NonNullable<ElicitResult['content']>;
}

const handlers: ClientHandlers = {
  elicitation: async (params) => {
    // The defaults scenario checks that the client fills omitted fields itself.
    if (scenario === 'elicitation-sep1034-client-defaults') return { action: 'accept', content: {} };
    const requested = 'requestedSchema' in params ? params.requestedSchema : undefined;
    return { action: 'accept', content: plausibleContent(requested) };
  },
  sampling: async () => ({
    role: 'assistant',
    content: { type: 'text', text: 'Paris is the capital of France.' },
    model: 'mcpkit-conformance',
    stopReason: 'endTurn',
  }),
  roots: async () => ({ roots: [{ uri: 'file:///tmp/mcpkit-conformance', name: 'conformance' }] }),
};

async function callAll(client: Client, names: string[]): Promise<void> {
  for (const name of names) await client.callTool(name, {});
}

const SCENARIOS: Record<string, Scenario> = {
  initialize: async (client) => {
    await client.listTools();
  },
  tools_call: async (client) => {
    await client.listTools();
    await client.callTool('add_numbers', { a: 5, b: 3 });
  },
  'request-metadata': async (client) => {
    // The mock refuses the first request with -32022; the client retries by itself.
    await client.listTools();
  },
  'sep-2322-client-request-state': async (client) => {
    await client.listTools();
    await callAll(client, [
      'test_mrtr_echo_state',
      'test_mrtr_no_state',
      'test_mrtr_unrelated',
      'test_mrtr_no_result_type',
    ]);
  },
  'http-standard-headers': async (client) => {
    const [tool] = await client.listTools();
    if (tool) await client.callTool(tool.name, {});
    const [resource] = await client.listResources();
    if (resource) await client.readResource(resource.uri);
    const [prompt] = await client.listPrompts();
    if (prompt) await client.getPrompt(prompt.name, {});
  },
  'http-custom-headers': async (client, ctx) => {
    await client.listTools();
    const calls = (Array.isArray(ctx.toolCalls) ? ctx.toolCalls : []) as { name: string; arguments?: Json }[];
    for (const call of calls) await client.callTool(call.name, call.arguments ?? {});
  },
  'http-invalid-tool-headers': async (client) => {
    const tools = await client.listTools();
    for (const tool of tools) {
      await client.callTool(tool.name, plausibleContent(tool.inputSchema) as Json);
    }
  },
  'json-schema-ref-no-deref': async (client) => {
    await client.listTools();
  },
  'json-schema-2020-12-preservation': async (client) => {
    const tools = await client.listTools();
    const source = tools.find((t) => t.name === 'json_schema_2020_12_tool');
    if (!source) throw new Error('json_schema_2020_12_tool is not listed');
    await client.callTool('json_schema_echo', { schema: source.inputSchema });
  },
  'elicitation-sep1034-client-defaults': async (client) => {
    await client.listTools();
    await client.callTool('test_client_elicitation_defaults', {});
  },
  'sse-retry': async (client) => {
    await client.listTools();
    await client.callTool('test_reconnection', {});
  },
};

/** The mock authorization endpoint redirects at once: follow it by hand and read `Location`. */
async function followRedirect(url: URL): Promise<string | undefined> {
  const response = await fetch(url, { redirect: 'manual' });
  await response.body?.cancel();
  return response.headers.get('location') ?? undefined;
}

const str = (key: string): string => (typeof context[key] === 'string' ? (context[key] as string) : '');

/** The OAuth client options for an `auth/*` scenario (conformance README, client duties). */
function authOptions(): OAuthClientOptions {
  const base: OAuthClientOptions = {
    clientName: 'mcpkit-conformance-client',
    redirectUri: 'http://localhost:3000/callback',
    redirect: followRedirect,
  };
  switch (scenario) {
    case 'auth/client-credentials-jwt':
      return {
        ...base,
        grant: { type: 'client_credentials' },
        credentials: {
          clientId: str('client_id'),
          privateKey: str('private_key_pem'),
          signingAlgorithm: str('signing_algorithm') || 'ES256',
        },
      };
    case 'auth/client-credentials-basic':
      return {
        ...base,
        grant: { type: 'client_credentials' },
        credentials: { clientId: str('client_id'), clientSecret: str('client_secret') },
      };
    case 'auth/enterprise-managed-authorization':
      return {
        ...base,
        credentials: { clientId: str('client_id'), clientSecret: str('client_secret') },
        grant: {
          type: 'enterprise',
          idToken: () => str('idp_id_token'),
          idp: {
            tokenEndpoint: str('idp_token_endpoint'),
            clientId: str('idp_client_id'),
            issuer: str('idp_issuer'),
          },
        },
      };
    case 'auth/wif-jwt-bearer':
      return {
        ...base,
        credentials: { clientId: str('client_id') },
        grant: { type: 'jwt_bearer', assertion: () => str('valid_jwt') },
      };
    case 'auth/pre-registration':
      return { ...base, credentials: { clientId: str('client_id'), clientSecret: str('client_secret') } };
    default:
      return { ...base, clientMetadataUrl: 'https://conformance-test.local/client-metadata.json' };
  }
}

/** Every auth scenario: list the tools, then call the first (step-up challenges `tools/call`). */
async function authScenario(client: Client): Promise<void> {
  const [tool] = await client.listTools();
  if (tool) await client.callTool(tool.name, {});
}

async function main(): Promise<number> {
  const auth = scenario.startsWith('auth/') ? oauthClient(authOptions()) : undefined;
  const modern = revision !== '2025-11-25';
  const client = createClient({
    name: 'mcpkit-conformance-client',
    version: '0.1.0',
    era: modern ? 'modern' : 'legacy',
    ...(modern ? { protocolVersion: revision } : { legacyProtocolVersion: revision }),
    handlers,
    onWarning: (m) => console.error(`warning: ${m}`),
  });
  const onWarning = (m: string) => console.error(`warning: ${m}`);
  await client.connect(streamableHttp(url, auth ? { onWarning, auth } : { onWarning }));
  try {
    const run = auth
      ? authScenario
      : (SCENARIOS[scenario] ?? ((c: Client) => c.listTools().then(() => undefined)));
    await run(client, context);
  } finally {
    await client.close();
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
