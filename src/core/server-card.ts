/**
 * `mcpkit/server-card`: the Server Card, a static JSON document that describes a remote MCP
 * server (identity, endpoints, protocol versions) before anyone connects. Shapes, media type and schema
 * URL as the experimental extension defines them; the JSON Schema below states the same
 * constraints in our words and is checked against the extension's own schema in tests.
 * Source: SEP-2127 (draft); modelcontextprotocol/experimental-ext-server-card `schema.ts`
 * and `docs/discovery.md` at 8924e08 (2026-07-24).
 */
import type { Icon } from './types/index.js';

/** The media type of a Server Card (`Accept` on the GET, `Content-Type` on the answer). */
export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';

/** The one `$schema` value a v1 Server Card may carry. */
export const SERVER_CARD_SCHEMA_URL =
  'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

/** The path suffix reserved for a card: `GET <streamable-http-url>/server-card`. */
export const SERVER_CARD_PATH = '/server-card';

/**
 * The site-wide location some implementers serve and read a card at:
 * `GET <origin>/.well-known/mcp/server-card.json`. The extension's `docs/discovery.md`
 * recommends `<endpoint>/server-card` and does not reserve this path; mcpkit serves and
 * reads both so that clients and servers of either convention find each other.
 */
export const SERVER_CARD_WELL_KNOWN_PATH = '/.well-known/mcp/server-card.json';

/** `name`: reverse-DNS namespace, one slash, server name (3 to 200 characters). */
export const SERVER_CARD_NAME_PATTERN = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

/** A value a user supplies or that is preset: a remote's URL variable or a header value. */
export interface CardInput {
  description?: string;
  isRequired?: boolean;
  isSecret?: boolean;
  format?: 'string' | 'number' | 'boolean' | 'filepath';
  default?: string;
  placeholder?: string;
  /** Preset value; `{name}` placeholders are filled from `variables` (headers). */
  value?: string;
  choices?: string[];
}

/** A named input: one HTTP header a remote takes. */
export interface CardHeader extends CardInput {
  name: string;
  variables?: Record<string, CardInput>;
}

/** One HTTP endpoint of the server. */
export interface CardRemote {
  type: 'streamable-http' | 'sse';
  /** `http(s)://…`, or a template whose `{name}` parts come from `variables`. */
  url: string;
  headers?: CardHeader[];
  variables?: Record<string, CardInput>;
  /** The protocol revisions this endpoint serves. */
  supportedProtocolVersions?: string[];
}

/** Where the server's source lives. */
export interface CardRepository {
  url: string;
  /** The forge, e.g. `github`. */
  source: string;
  subfolder?: string;
  id?: string;
}

/**
 * A Server Card. It deliberately carries no tools, resources, prompts, capabilities or
 * extensions: those stay with the live connection (SEP-2127 "Why Exclude Primitives?").
 */
export interface ServerCard {
  $schema: string;
  name: string;
  version: string;
  /** 1 to 100 characters. */
  description: string;
  title?: string;
  websiteUrl?: string;
  repository?: CardRepository;
  icons?: Icon[];
  remotes?: CardRemote[];
  _meta?: Record<string, unknown>;
}

const string = { type: 'string' } as const;
const strings = { type: 'array', items: string } as const;
const input = {
  type: 'object',
  properties: {
    description: string,
    isRequired: { type: 'boolean' },
    isSecret: { type: 'boolean' },
    format: { enum: ['string', 'number', 'boolean', 'filepath'] },
    default: string,
    placeholder: string,
    value: string,
    choices: strings,
  },
} as const;
const variables = { type: 'object', additionalProperties: input } as const;

/**
 * JSON Schema 2020-12 of a {@link ServerCard}: what a client checks a fetched card
 * against before trusting any of it. Objects stay open, as the extension's are.
 */
export const SERVER_CARD_JSON_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['$schema', 'name', 'version', 'description'],
  properties: {
    $schema: { const: SERVER_CARD_SCHEMA_URL },
    name: { type: 'string', minLength: 3, maxLength: 200, pattern: SERVER_CARD_NAME_PATTERN.source },
    version: { type: 'string', maxLength: 255 },
    description: { type: 'string', minLength: 1, maxLength: 100 },
    title: { type: 'string', minLength: 1, maxLength: 100 },
    websiteUrl: { type: 'string', format: 'uri' },
    repository: {
      type: 'object',
      required: ['url', 'source'],
      properties: { url: { type: 'string', format: 'uri' }, source: string, subfolder: string, id: string },
    },
    icons: {
      type: 'array',
      items: {
        type: 'object',
        required: ['src'],
        properties: {
          src: { type: 'string', format: 'uri' },
          mimeType: string,
          sizes: strings,
          theme: { enum: ['light', 'dark'] },
        },
      },
    },
    remotes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'url'],
        properties: {
          type: { enum: ['streamable-http', 'sse'] },
          url: { type: 'string', pattern: '^(https?://[^\\s]+|\\{[a-zA-Z_][a-zA-Z0-9_]*\\}[^\\s]*)$' },
          headers: {
            type: 'array',
            items: {
              type: 'object',
              required: ['name'],
              properties: { ...input.properties, name: string, variables },
            },
          },
          variables,
          supportedProtocolVersions: strings,
        },
      },
    },
    _meta: { type: 'object' },
  },
} as const;
