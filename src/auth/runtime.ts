/**
 * The internal face of `src/auth` for mcpkit's own code outside it (never a package
 * export): the public-address rules, which the fetch reference server shares with the
 * authorization server façade's fetch of Client ID Metadata Documents.
 */
export { addressLiteral, isPublicAddress, vettedLookup, type Lookup } from './public-address.js';
