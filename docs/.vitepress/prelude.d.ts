// Names every TypeScript block of the docs may use without declaring them (docs/README.md).
// A block that imports or declares the same name uses its own.
import type { Client } from 'mcpkit/client';
import type { Host } from 'mcpkit/host';
import type { McpServer } from 'mcpkit/server';

declare global {
  const server: McpServer;
  const client: Client;
  const host: Host;
  const z: typeof import('zod').z;
  const handler: (request: Request) => Promise<Response>;
  const askTheUser: (...args: unknown[]) => Promise<never>;
  const callMyModel: (...args: unknown[]) => Promise<never>;
}
export {};
