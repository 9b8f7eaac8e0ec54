/**
 * A Worker for test/runtimes/facade-worker.test.ts: the notes server (`ctx.userState`)
 * behind the authorization server façade, with the façade's store and the user state in
 * Durable Objects (`McpFacade`, `McpUserState`, bound in facade-worker.jsonc). The upstream
 * OpenID provider, the façade's secret and the endpoint's URL come from `vars`.
 */
import { authorizationFacade, oidcUpstream, type AuthorizationFacade } from '../../src/auth/index.js';
import {
  createDurableFacadeStore,
  createDurableUserStateStore,
  createWorker,
  facadeObject,
  userStateObject,
  type DurableObjectNamespace,
  type WorkerEnv,
} from '../../src/integrations/cloudflare/index.js';
import type { McpServer } from '../../src/server/index.js';
import { notesServer } from '../support/notes-server.js';

let facade: AuthorizationFacade | undefined;
let server: McpServer | undefined;

const text = (env: WorkerEnv, name: string) => String(env[name]);

const facadeOf = (env: WorkerEnv): AuthorizationFacade =>
  (facade ??= authorizationFacade({
    resource: text(env, 'MCP_RESOURCE'),
    upstream: oidcUpstream({
      issuer: text(env, 'UPSTREAM_ISSUER'),
      clientId: 'facade',
      clientSecret: 'facade-secret',
      scopes: ['openid', 'email'],
    }),
    secret: text(env, 'FACADE_SECRET'),
    store: createDurableFacadeStore(env.MCP_FACADE as DurableObjectNamespace),
    scopes: ['mcp:read'],
  }));

const notes = (env: WorkerEnv): McpServer =>
  (server ??= notesServer({
    userState: { store: createDurableUserStateStore(env.MCP_USER_STATE as DurableObjectNamespace) },
  }));

export default createWorker(notes, (env) => ({
  auth: facadeOf(env),
  allowedHosts: ['127.0.0.1'],
  allowedOrigins: ['127.0.0.1'],
}));
export const McpFacade = facadeObject();
export const McpUserState = userStateObject();
