import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/index.js';
import { connectAssistant } from './support/assistant-client.js';
import { listTools, oauthFlow } from './support/oauth-flow.js';

// Behind one load balancer, instances share the public address (VSF_PUBLIC_URL): B is reached at its own
// port but names A's address, as the balancer's would be. Both need the shared database: PostgreSQL only.
const databaseUrl = process.env.TEST_DATABASE_URL;

/**
 * As for keys (keys-across-instances.test.ts): a change acts at once on the instance that made it, and on
 * the others when its notification arrives, a few ms after commit; the bound is a second.
 */
const PROPAGATION_MS = 1000;

async function within<T>(read: () => Promise<T>, holds: (value: T) => boolean): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (holds(value) || Date.now() - started > PROPAGATION_MS) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

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
    const after = await within(
      () => onB.mcp(token, listTools),
      (res) => res.status === 401,
    );
    expect(after.status).toBe(401);
    expect(await after.json()).toMatchObject({ error: 'API key revoked' });
    await client.close();
  });

  it('narrows, switches off and ends a token on the other instance at its next request, though it holds it cached', async () => {
    const team = await a.createTeam();
    const email = `y-${Math.random().toString(36).slice(2)}@example.com`;
    const member = { email, password: 'correct horse battery' };
    const created = await a.admin('POST', `/teams/${team.id}/members`, {
      ...member,
      scopes: ['read:cars', 'write:cars'],
    });
    const memberId = ((await created.json()) as { data: { id: string } }).data.id;
    const { client, provider } = await connectAssistant(a.origin, member);
    const token = provider.saved?.access_token as string;
    const onB = oauthFlow(b.origin);
    const toolNames = async () => {
      const listed = await onB.mcp(token, listTools);
      const body = (await listed.json()) as { result?: { tools: { name: string }[] } };
      return { status: listed.status, names: body.result?.tools.map((t) => t.name) ?? [], body };
    };
    // Twice, so B answers the second from its cache.
    await toolNames();
    expect((await toolNames()).names).toContain('create_car');

    expect((await a.admin('PATCH', `/teams/${team.id}/members/${memberId}`, { scopes: ['read:cars'] })).status).toBe(
      200,
    );
    const narrowed = await within(toolNames, (r) => !r.names.includes('create_car'));
    expect(narrowed.names).toContain('get_car');
    expect(narrowed.names).not.toContain('create_car');

    expect((await a.admin('PATCH', `/teams/${team.id}`, { apiEnabled: false })).status).toBe(200);
    const off = await within(toolNames, (r) => r.status === 403);
    expect(off.status).toBe(403);
    expect(off.body).toMatchObject({ error: 'API is disabled for this team' });
    expect((await a.admin('PATCH', `/teams/${team.id}`, { apiEnabled: true })).status).toBe(200);
    expect((await within(toolNames, (r) => r.status === 200)).status).toBe(200);

    expect((await a.admin('DELETE', `/teams/${team.id}/members/${memberId}`)).status).toBe(200);
    const gone = await within(toolNames, (r) => r.status === 401);
    expect(gone.status).toBe(401);
    await client.close();
  });
});
