import { describe, expect, it } from 'vitest';
import { renderContent, renderResourceContents, schemaSignature } from './render.js';

describe('schemaSignature', () => {
  it.each([
    [{ type: 'object' }, '{}'],
    [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, '{a: string}'],
    [{ type: 'object', properties: { n: { type: 'integer' } } }, '{n?: integer}'],
    [{ type: 'array', items: { type: 'number' } }, 'number[]'],
    [{ type: 'array', items: { enum: ['a', 'b'] } }, '("a" | "b")[]'],
    [{ anyOf: [{ type: 'string' }, { type: 'null' }] }, 'string | null'],
    [{ $ref: '#/$defs/address' }, 'address'],
    [{ type: ['string', 'number'] }, 'string | number'],
    [
      {
        type: 'object',
        properties: { a: { type: 'object', properties: { b: { type: 'object', properties: { c: {} } } } } },
      },
      '{a?: {b?: {…}}}',
    ],
    [true, 'any'],
  ])('renders %j as %s', (schema, expected) => {
    expect(schemaSignature(schema)).toBe(expected);
  });
});

describe('renderContent', () => {
  it('prints text as text and summarises everything else', () => {
    expect(renderContent({ type: 'text', text: 'hi' })).toBe('hi');
    expect(renderContent({ type: 'image', data: 'AAAA', mimeType: 'image/png' })).toBe(
      '[image image/png, 3 bytes]',
    );
    expect(renderContent({ type: 'resource_link', uri: 'file:///a', name: 'a' })).toBe(
      '[resource link file:///a]',
    );
    expect(renderContent({ type: 'resource', resource: { uri: 'x:y', text: 'inner' } })).toBe('inner');
  });

  it('summarises a blob with its type, URI and size', () => {
    expect(renderResourceContents({ uri: 'x:y', blob: 'AAA=', mimeType: 'a/b' })).toBe('[a/b x:y, 2 bytes]');
  });
});
