/**
 * The MCP Apps rules in core: a tool's `_meta.ui` read leniently (flat key, default and
 * malformed visibility), negotiation, and the view's CSP: the spec's restrictive default,
 * widened only by declared plain origins (anything else dropped), and the `allow` list.
 */
import { describe, expect, it } from 'vitest';
import { appAllowAttribute, appCspHeader, negotiatesUi, toolUiOf } from './apps.js';

describe('toolUiOf', () => {
  it.each([
    [
      { _meta: { ui: { resourceUri: 'ui://a/v' } } },
      { resourceUri: 'ui://a/v', visibility: ['model', 'app'] },
    ],
    [
      { _meta: { 'ui/resourceUri': 'ui://a/flat' } },
      { resourceUri: 'ui://a/flat', visibility: ['model', 'app'] },
    ],
    [{ _meta: { ui: { resourceUri: 'https://x', visibility: ['app'] } } }, { visibility: ['app'] }],
    [{ _meta: { ui: { visibility: ['app', 'root'] } } }, { visibility: ['model', 'app'] }],
    [{ _meta: 'junk' }, { visibility: ['model', 'app'] }],
  ])('reads %j', (tool, expected) => expect(toolUiOf(tool)).toEqual(expected));
});

describe('negotiatesUi', () => {
  it.each([
    [{ extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } }, true],
    [{ extensions: { 'io.modelcontextprotocol/ui': {} } }, false],
    [{ extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html'] } } }, false],
    [{}, false],
  ])('%j → %s', (caps, expected) => expect(negotiatesUi(caps)).toBe(expected));
});

describe('appCspHeader', () => {
  it('is the restrictive default without declarations', () => {
    const csp = appCspHeader(undefined);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain("frame-src 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'self'");
  });

  it('adds declared origins and drops anything that is not a plain origin', () => {
    const csp = appCspHeader({
      connectDomains: ['https://api.example.com', "'unsafe-eval'", 'https://x.com; script-src *', '*'],
      resourceDomains: ['https://*.cdn.example'],
    });
    expect(csp).toContain('connect-src https://api.example.com;');
    expect(csp).toContain("script-src 'self' 'unsafe-inline' https://*.cdn.example;");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp.split('; ').filter((d) => d.startsWith('script-src'))).toHaveLength(1);
  });

  it('maps permissions to the iframe allow attribute', () => {
    expect(appAllowAttribute({ camera: {}, clipboardWrite: {}, bogus: {} })).toBe('camera; clipboard-write');
    expect(appAllowAttribute(undefined)).toBe('');
  });
});
