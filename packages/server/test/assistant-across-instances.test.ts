import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/index.js';
import { connectAssistant } from './support/assistant-client.js';
import { listTools, oauthFlow } from './support/oauth-flow.js';

// Behind one load balancer, instances share the public address (VSF_PUBLIC_URL): B is reached at its own
// port but names A's address, as the balancer's would be. Both need the shared database: PostgreSQL only.
const databaseUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!databaseUrl)('the assistant connector across two instances', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    a = await startTestServer({ databaseUrl });
    b = await startTestServer({ databaseUrl, publicUrl: a.origin });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('takes a token issued by one instance on the other, until it is revoked on the first', async () => {
    const team = await a.createTeam();
    const member = { email: `x-${Math.random().toString(36).slice(2)}@example.com`, password: 'correct horse battery' };
    await a.admin('POST', `/teams/${team.id}/members`, { ...member, scopes: ['read:cars', 'write:cars'] });
    const { client, provider } = await connectAssistant(a.origin, member);
    const created = await client.callTool({
      name: 'create_car',
      arguments: { year: 2001, make: 'Volvo', model: 'V70' },
    });
    const carId = (created.structuredContent as { data: { id: string } }).data.id;
    const token = provider.saved?.access_token as string;

    const onB = oauthFlow(b.origin);
    const listed = await onB.mcp(token, listTools);
    expect(listed.status).toBe(200);
    const got = await onB.mcp(token, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'get_car', arguments: { carId } },
    });
    const body = (await got.json()) as { result: { structuredContent: { data: { make: string } } } };
    expect(body.result.structuredContent.data.make).toBe('Volvo');

    const revoked = await fetch(`${a.origin}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, client_id: String(provider.info?.client_id) }).toString(),
    });
    expect(revoked.status).toBe(200);
    const after = await onB.mcp(token, listTools);
    expect(after.status).toBe(401);
    expect(await after.json()).toMatchObject({ error: 'API key revoked' });
    await client.close();
  });
});
