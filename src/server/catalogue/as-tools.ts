/**
 * Prompts and resources offered as tools, for clients that only use tools: `list_prompts`
 * and `get_prompt`, `list_resources` and `read_resource`. They read the catalogue as the
 * transform receives it, with each caller's own view (hidden entries stay hidden); the
 * prompts and resources themselves stay listed too.
 * Source: 2026-07-28 server/tools, server/prompts, server/resources.
 */
import type { ContentBlock } from '../../core/index.js';
import type { RequestContext } from '../context.js';
import { isInputRequired, type InputRequiredAnswer } from '../mrtr.js';
import { resourceUriKey } from '../resource-uri.js';
import type { ToolResult } from '../tool-types.js';
import { errorResult } from '../tools.js';
import { isVisible, type Catalogue, type ReadResult, type ToolEntry, type Transform } from './types.js';

type Call = (args: Record<string, unknown>, ctx: RequestContext) => Promise<ToolResult | InputRequiredAnswer>;

function simpleTool(name: string, description: string, inputSchema: Record<string, unknown>, call: Call): ToolEntry {
  return {
    tool: { name, description, inputSchema: { type: 'object', ...inputSchema } as ToolEntry['tool']['inputSchema'] },
    tags: [],
    call: (args, ctx) => call((args ?? {}) as Record<string, unknown>, ctx),
    checkArgs: async (args) => ({ value: args }),
  };
}

const json = (value: unknown): ToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  structuredContent: value as Record<string, unknown>,
});

/** Adds `list_prompts` and `get_prompt` (`{ name, arguments? }`), answering as `prompts/list` and `prompts/get` would. */
export function promptsAsTools(): Transform {
  return (c: Catalogue) => {
    const list = simpleTool('list_prompts', 'Lists the prompts available, with their arguments.', {}, async (_a, ctx) =>
      json({ prompts: c.prompts.filter((p) => isVisible(p, ctx)).map((p) => p.prompt) }),
    );
    const get = simpleTool(
      'get_prompt',
      'Renders a prompt by name with its arguments (strings); returns its messages.',
      {
        properties: {
          name: { type: 'string', description: 'The prompt name, as list_prompts gives it.' },
          arguments: { type: 'object', additionalProperties: { type: 'string' } },
        },
        required: ['name'],
      },
      async (args, ctx) => {
        const entry = c.prompts.find((p) => p.prompt.name === args.name && isVisible(p, ctx));
        if (!entry || typeof args.name !== 'string') return errorResult(`Unknown prompt: ${String(args.name)}`);
        const rendered = await entry.get(args.arguments ?? {}, ctx);
        if (isInputRequired(rendered)) return rendered;
        return { ...json(rendered), content: rendered.messages.map((m) => m.content as ContentBlock) };
      },
    );
    return { ...c, tools: [...c.tools, list, get] };
  };
}

/** Adds `list_resources` and `read_resource` (`{ uri }`), answering as `resources/list` and `resources/read` would. */
export function resourcesAsTools(): Transform {
  return (c: Catalogue) => {
    const list = simpleTool(
      'list_resources',
      'Lists the resources and resource templates available.',
      {},
      async (_a, ctx) =>
        json({
          resources: c.resources.filter((r) => isVisible(r, ctx)).map((r) => r.resource),
          resourceTemplates: c.templates.filter((t) => isVisible(t, ctx)).map((t) => t.template),
        }),
    );
    const read = simpleTool(
      'read_resource',
      'Reads a resource by URI (a listed one, or one a template describes).',
      { properties: { uri: { type: 'string' } }, required: ['uri'] },
      async (args, ctx) => {
        if (typeof args.uri !== 'string') return errorResult('read_resource needs a uri string');
        const read = await readFrom(c, args.uri, ctx);
        if (!read) return errorResult(`Resource not found: ${args.uri}`);
        if (isInputRequired(read)) return read;
        return { content: read.contents.map((resource) => ({ type: 'resource', resource }) as ContentBlock) };
      },
    );
    return { ...c, tools: [...c.tools, list, read] };
  };
}

async function readFrom(
  c: Catalogue,
  uri: string,
  ctx: RequestContext,
): Promise<ReadResult | InputRequiredAnswer | undefined> {
  const key = resourceUriKey(uri);
  const fixed = c.resources.find((r) => resourceUriKey(r.resource.uri) === key && isVisible(r, ctx));
  if (fixed) return fixed.read(ctx);
  for (const t of c.templates) {
    if (!isVisible(t, ctx)) continue;
    await t.matcher.ready;
    const variables = t.matcher.match(uri);
    if (variables) return t.read(uri, variables, ctx);
  }
  return undefined;
}
