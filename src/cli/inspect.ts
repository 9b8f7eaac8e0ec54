/**
 * `mcpkit inspect`: everything a server says about itself, as text for people or one JSON
 * object. Lists are fetched only for the capabilities the server declares; a list method
 * the server answers with -32601 is reported as missing and the rest is still shown.
 */
import type { Client } from '../client/index.js';
import {
  ERROR_TABLE,
  WireError,
  type Implementation,
  type Prompt,
  type Resource,
  type ResourceTemplate,
  type ServerCapabilities,
  type Tool,
} from '../core/index.js';
import { compactJson, indent, schemaSignature } from './render.js';

/** What `inspect` reports; also its `--json` shape. */
export interface Inspection {
  server: Implementation | null;
  era: string | null;
  protocolVersion: string | null;
  capabilities: ServerCapabilities;
  instructions: string | null;
  tools: Tool[] | null;
  resources: Resource[] | null;
  resourceTemplates: ResourceTemplate[] | null;
  prompts: Prompt[] | null;
  /** List methods the server answered with -32601 Method not found (their lists are `null`). */
  missing: string[];
}

/**
 * Collects the inspection; `null` lists are capabilities the server does not declare, or
 * list methods it does not implement (named in `missing`).
 * @throws what the client throws for any other failure of a list.
 */
export async function inspect(client: Client, signal: AbortSignal): Promise<Inspection> {
  if (client.era === 'modern' && client.serverCapabilities === undefined) await client.discover({ signal });
  const capabilities = client.serverCapabilities ?? {};
  const missing: string[] = [];
  const list = async <T>(capability: keyof ServerCapabilities, method: string, fetch: () => Promise<T[]>) => {
    if (capabilities[capability] === undefined) return null;
    try {
      return await fetch();
    } catch (error) {
      if (!(error instanceof WireError) || error.code !== ERROR_TABLE.MethodNotFound.code) throw error;
      missing.push(method);
      return null;
    }
  };
  const options = { signal };
  return {
    server: client.serverInfo ?? null,
    era: client.era ?? null,
    protocolVersion: client.protocolVersion ?? null,
    capabilities,
    instructions: client.instructions ?? null,
    tools: await list('tools', 'tools/list', () => client.listTools(options)),
    resources: await list('resources', 'resources/list', () => client.listResources(options)),
    resourceTemplates: await list('resources', 'resources/templates/list', () =>
      client.listResourceTemplates(options),
    ),
    prompts: await list('prompts', 'prompts/list', () => client.listPrompts(options)),
    missing,
  };
}

/** The inspection as human-readable text. */
export function formatInspection(inspection: Inspection): string {
  return [
    identity(inspection),
    section('Capabilities', capabilityLines(inspection.capabilities)),
    inspection.instructions === null ? '' : section('Instructions', [inspection.instructions]),
    list(['Tools', 'tools/list', inspection.missing], inspection.tools, toolLines),
    list(['Resources', 'resources/list', inspection.missing], inspection.resources, resourceLines),
    list(
      ['Resource templates', 'resources/templates/list', inspection.missing],
      inspection.resourceTemplates,
      templateLines,
    ),
    list(['Prompts', 'prompts/list', inspection.missing], inspection.prompts, promptLines),
  ]
    .filter((part) => part !== '')
    .join('\n\n');
}

function identity({ server, era, protocolVersion }: Inspection): string {
  const name = server === null ? '(unknown)' : `${server.name} ${server.version}`;
  const lines = [`Server:   ${name}`];
  if (server?.title) lines.push(`Title:    ${server.title}`);
  if (server?.description) lines.push(`About:    ${server.description}`);
  lines.push(`Era:      ${era ?? 'unknown'} (protocol ${protocolVersion ?? 'unknown'})`);
  return lines.join('\n');
}

function section(title: string, lines: string[]): string {
  return `${title}\n${indent(lines.join('\n'), 2)}`;
}

function capabilityLines(capabilities: ServerCapabilities): string[] {
  const entries = Object.entries(capabilities);
  if (entries.length === 0) return ['(none)'];
  return entries.map(([key, value]) => `${key}: ${compactJson(value)}`);
}

/** `heading` is the section's title, its list method and the methods the server lacks. */
function list<T>(
  heading: [title: string, method: string, missing: readonly string[]],
  items: T[] | null,
  lines: (item: T) => string[],
): string {
  const [title, method, missing] = heading;
  if (items === null && missing.includes(method))
    return `${title}: missing (the server answered ${method} with -32601 Method not found)`;
  if (items === null) return `${title}: not offered`;
  if (items.length === 0) return `${title}: none`;
  return `${title} (${items.length})\n${indent(items.map((item) => lines(item).join('\n  ')).join('\n'), 2)}`;
}

function heading(name: string, title: string | undefined): string {
  return title && title !== name ? `${name} — ${title}` : name;
}

function described(first: string, description: string | undefined, ...more: string[]): string[] {
  return [first, ...(description ? [description.replace(/\s*\n\s*/g, ' ')] : []), ...more];
}

function toolLines(tool: Tool): string[] {
  return described(heading(tool.name, tool.title), tool.description, `input: ${inputSignature(tool)}`);
}

function inputSignature(tool: Tool): string {
  const signature = schemaSignature(tool.inputSchema);
  return signature === '{}' ? '(none)' : signature;
}

function resourceLines(resource: Resource): string[] {
  const mime = resource.mimeType ? ` (${resource.mimeType})` : '';
  return described(`${resource.uri}  ${heading(resource.name, resource.title)}${mime}`, resource.description);
}

function templateLines(template: ResourceTemplate): string[] {
  const mime = template.mimeType ? ` (${template.mimeType})` : '';
  return described(
    `${template.uriTemplate}  ${heading(template.name, template.title)}${mime}`,
    template.description,
  );
}

function promptLines(prompt: Prompt): string[] {
  const args = (prompt.arguments ?? []).map(
    (arg) => `${arg.name}${arg.required ? '' : '?'}${arg.description ? ` (${arg.description})` : ''}`,
  );
  return described(
    heading(prompt.name, prompt.title),
    prompt.description,
    ...(args.length ? [`arguments: ${args.join(', ')}`] : []),
  );
}
