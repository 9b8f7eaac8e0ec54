/**
 * Plain-text renderings for people: compact JSON Schema signatures and content blocks
 * (text as text, everything else summarised in brackets).
 */
import type { BlobResourceContents, ContentBlock, TextResourceContents } from '../core/index.js';

type Json = Record<string, unknown>;

/** How deep nested object schemas are spelled out before they become `{…}`. */
const MAX_DEPTH = 2;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A one-line TypeScript-like signature of a JSON Schema, e.g.
 * `{text: string, count?: integer, tags?: string[]}`.
 */
export function schemaSignature(schema: unknown, depth = 0): string {
  if (!isObject(schema)) return schema === false ? 'never' : 'any';
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if ('const' in schema) return JSON.stringify(schema.const);
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union)) return union.map((s) => schemaSignature(s, depth)).join(' | ');
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').pop() ?? 'any';
  if (schema.type === 'array') return arraySignature(schema.items, depth);
  if (schema.type === 'object' || isObject(schema.properties)) return objectSignature(schema, depth);
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  return typeof schema.type === 'string' ? schema.type : 'any';
}

function arraySignature(items: unknown, depth: number): string {
  const item = schemaSignature(items, depth);
  return item.includes(' ') && !item.startsWith('{') ? `(${item})[]` : `${item}[]`;
}

function objectSignature(schema: Json, depth: number): string {
  const properties = isObject(schema.properties) ? Object.entries(schema.properties) : [];
  if (properties.length === 0) return '{}';
  if (depth >= MAX_DEPTH) return '{…}';
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const fields = properties.map(
    ([key, value]) => `${key}${required.has(key) ? '' : '?'}: ${schemaSignature(value, depth + 1)}`,
  );
  return `{${fields.join(', ')}}`;
}

/** The size in bytes of base64 `data`. */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

/** A content block for the terminal: text as is, anything else as a bracketed summary. */
export function renderContent(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType}, ${base64Bytes(block.data)} bytes]`;
    case 'resource_link':
      return `[resource link ${block.uri}${block.mimeType ? ` (${block.mimeType})` : ''}]`;
    case 'resource':
      return renderResourceContents(block.resource);
    default:
      return `[${String((block as { type?: unknown }).type)} content]`;
  }
}

/** Resource contents: text as is, a blob as a bracketed summary. */
export function renderResourceContents(contents: TextResourceContents | BlobResourceContents): string {
  if ('text' in contents) return contents.text;
  const type = contents.mimeType ?? 'binary';
  return `[${type} ${contents.uri}, ${base64Bytes(contents.blob)} bytes]`;
}

/** Compact JSON for one line (capability values, structured content). */
export function compactJson(value: unknown): string {
  return JSON.stringify(value) ?? 'undefined';
}

/** Indents every line of `text` by `spaces`. */
export function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((line) => (line === '' ? line : pad + line))
    .join('\n');
}
