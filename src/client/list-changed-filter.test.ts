import { describe, expect, it } from 'vitest';
import { connect, createServer } from '../server/index.js';
import { createLinkedPair } from '../testing/index.js';
import { createClient, listChangedFilter } from './index.js';

describe('listChangedFilter (mcpkit/client)', () => {
  it('asks for each list the capabilities declare listChanged for, and nothing else', () => {
    expect(listChangedFilter({})).toEqual({});
    expect(
      listChangedFilter({ tools: { listChanged: true }, prompts: {}, resources: { subscribe: true } }),
    ).toEqual({
      toolsListChanged: true,
    });
    expect(
      listChangedFilter({
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { listChanged: true },
      }),
    ).toEqual({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true });
  });

  it("follows a connected server's lists through client.listen", async () => {
    const server = createServer({ name: 's', version: '1' });
    server.tool('echo', {}, () => 'hi');
    const [clientSide, serverSide] = createLinkedPair();
    const connection = await connect(server, serverSide);
    const client = createClient({ name: 'c', version: '1' });
    await client.connect(clientSide);
    const filter = listChangedFilter(client.serverCapabilities ?? {});
    expect(filter.toolsListChanged).toBe(true);
    const subscription = client.listen(filter);
    await expect(subscription.acknowledged).resolves.toMatchObject({ toolsListChanged: true });
    subscription.close();
    await client.close();
    await connection.close();
  });
});
