/**
 * A development authorization server to try the protected examples with: panva's
 * oidc-provider (a devDependency) with dynamic registration, PKCE, resource indicators
 * (JWT access tokens for the resource asked for), refresh tokens and DPoP. Its development
 * login page accepts any user name. Not for production.
 *
 * Run: npm run build && node dist/examples/dev-issuer.js [PORT]   (default 4000)
 */
import { exportJWK, generateKeyPair } from 'jose';
// @ts-expect-error oidc-provider ships no type declarations
import Provider from 'oidc-provider';

const port = Number(process.argv[2] ?? 4000);
const issuer = `http://127.0.0.1:${port}`;
const key = await generateKeyPair('ES256', { extractable: true });
const rsa = await generateKeyPair('RS256', { extractable: true });
const provider = new Provider(issuer, {
  jwks: {
    keys: [
      { ...(await exportJWK(key.privateKey)), alg: 'ES256', use: 'sig', kid: 'dev-ec' },
      { ...(await exportJWK(rsa.privateKey)), alg: 'RS256', use: 'sig', kid: 'dev-rsa' },
    ],
  },
  cookies: { keys: ['dev-only-cookie-key'] },
  scopes: ['offline_access', 'notes:read', 'notes:write'],
  pkce: { required: () => true },
  features: {
    devInteractions: { enabled: true },
    registration: { enabled: true },
    dPoP: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => undefined,
      useGrantedResource: () => true,
      getResourceServerInfo: (_ctx: unknown, resource: string) => ({
        scope: 'notes:read notes:write',
        audience: resource,
        accessTokenFormat: 'jwt',
        jwt: { sign: { alg: 'ES256' } },
      }),
    },
  },
  issueRefreshToken: (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
    client.grantTypeAllowed('refresh_token'),
});
provider.listen(port, '127.0.0.1' as never);
console.log(`dev issuer at ${issuer}`);
