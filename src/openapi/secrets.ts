/**
 * The redactor of one API's configured secrets: every credential value (and its
 * percent-encoded and Base64 forms, as an upstream may echo them) becomes `[redacted]`.
 */
import { base64 } from './call.js';
import type { OpenApiAuth } from './request.js';

/** Header names whose values are credentials. */
const SECRET_HEADER = /authorization|cookie|token|secret|key|password|auth/i;

/** A function that removes the secrets of `options.auth` and credential-like `options.headers` from a text. */
export function secretsRedactor(options: {
  auth?: OpenApiAuth;
  headers?: Record<string, string>;
}): (text: string) => string {
  const secrets = new Set<string>();
  const add = (value: string) => {
    if (value === '') return;
    secrets.add(value);
    secrets.add(encodeURIComponent(value));
    secrets.add(base64(new TextEncoder().encode(value)));
  };
  const auth = options.auth;
  if (auth?.type === 'bearer') add(auth.token);
  if (auth?.type === 'apiKey') add(auth.value);
  if (auth?.type === 'basic') {
    add(auth.password);
    add(`${auth.username}:${auth.password}`);
  }
  for (const [name, value] of Object.entries(options.headers ?? {})) if (SECRET_HEADER.test(name)) add(value);
  const ordered = [...secrets].sort((a, b) => b.length - a.length); // longest first: no partial leftovers
  if (ordered.length === 0) return (text) => text;
  return (text) => ordered.reduce((out, secret) => out.split(secret).join('[redacted]'), text);
}
