import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantToken, startTestServer, type TestServer } from '../src/testing/index.js';
import { connectAssistant, type Member } from './support/assistant-client.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

async function teamWithMember(scopes: string[]): Promise<{ teamId: string; member: Member; memberId: string }> {
  const team = await server.createTeam();
  const member = { email: `m-${Math.random().toString(36).slice(2)}@example.com`, password: 'correct horse battery' };
  const res = await server.admin('POST', `/teams/${team.id}/members`, { ...member, scopes });
  const body = (await res.json()) as { data: { id: string } };
  expect(res.status).toBe(201);
  return { teamId: team.id, member, memberId: body.data.id };
}

const textOf = (result: Record<string, unknown>) =>
  ((result.content as { type: string; text?: string }[]) ?? []).map((c) => c.text ?? '').join('\n');

describe('the assistant connector, through the official MCP client', () => {
  it('signs in with OAuth, lists the granted tools, reads and writes, refreshes, and is shut out after revocation', async () => {
    const { teamId, member } = await teamWithMember(['read:cars', 'write:cars', 'read:customers']);
    const { client, provider } = await connectAssistant(server.origin, member);

    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('create_car');
    expect(names).toContain('list_customers');
    expect(names).not.toContain('create_customer');
    expect(names).not.toContain('list_locations');
    expect(tools.find((t) => t.name === 'list_cars')?.annotations).toMatchObject({ readOnlyHint: true });

    const created = await client.callTool({
      name: 'create_car',
      arguments: { year: 2020, make: 'Saab', model: '900' },
    });
    expect(created.isError).toBeFalsy();
    const car = (created.structuredContent as { data: { id: string; teamId: string } }).data;
    expect(car.teamId).toBe(teamId);
    // The assistant repeats the same call (a lost answer): the call's own idempotency key replays it.
    const again = await client.callTool({ name: 'create_car', arguments: { year: 2020, make: 'Saab', model: '900' } });
    expect((again.structuredContent as { data: { id: string } }).data.id).toBe(car.id);

    const listed = await client.callTool({ name: 'list_cars', arguments: { limit: 1 } });
    expect(listed.structuredContent).toMatchObject({ page: 1, limit: 1, total: 1 });
    expect(textOf(listed)).toContain('last page');

    const got = await client.callTool({ name: 'get_car', arguments: { carId: car.id } });
    expect((got.structuredContent as { data: { make: string } }).data.make).toBe('Saab');

    const refused = await client.callTool({ name: 'create_car', arguments: { year: 1700, make: 'Old', model: 'T' } });
    expect(refused.isError).toBe(true);
    expect(JSON.parse(textOf(refused))).toMatchObject({ status: 400, code: 'validation_error' });

    const forbidden = await client.callTool({ name: 'create_customer', arguments: { firstName: 'A', lastName: 'B' } });
    expect(forbidden.isError).toBe(true);
    expect(JSON.parse(textOf(forbidden))).toMatchObject({ status: 403, error: 'Missing scope: write:customers' });

    // Refresh: a new pair, the old refresh token spent.
    const before = provider.saved;
    const tokenRes = await fetch(`${server.origin}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: before?.refresh_token ?? '',
        client_id: String(provider.info?.client_id),
      }),
    });
    const refreshed = (await tokenRes.json()) as { access_token: string; refresh_token: string };
    expect(tokenRes.status).toBe(200);
    expect(refreshed.refresh_token).not.toBe(before?.refresh_token);
    provider.saveTokens({ ...refreshed, token_type: 'Bearer' });
    expect((await client.callTool({ name: 'get_car', arguments: { carId: car.id } })).isError).toBeFalsy();

    // Revocation (RFC 7009) ends the grant: the next request is refused with the challenge.
    const revoke = await fetch(`${server.origin}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: refreshed.access_token, client_id: String(provider.info?.client_id) }),
    });
    expect(revoke.status).toBe(200);
    const after = await fetch(`${server.origin}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${refreshed.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('resource_metadata=');
    expect(await after.json()).toMatchObject({ error: 'API key revoked', code: 'unauthorized' });
    await client.close();
  });

  it('speaks both protocol versions it announces, 2025-06-18 and 2025-11-25', async () => {
    const { teamId } = await teamWithMember(['read:cars']);
    const token = await grantToken(server.db, teamId, ['read:cars'], server.origin);
    for (const protocolVersion of ['2025-06-18', '2025-11-25']) {
      const rpc = (message: unknown, headers: Record<string, string> = {}) =>
        fetch(`${server.origin}/mcp`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...headers,
          },
          body: JSON.stringify(message),
        });
      const init = await rpc({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion, capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
      });
      const body = (await init.json()) as { result: { protocolVersion: string; capabilities: { tools?: unknown } } };
      expect(body.result.protocolVersion).toBe(protocolVersion);
      expect(body.result.capabilities.tools).toBeDefined();
      const list = await rpc(
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        { 'mcp-protocol-version': protocolVersion },
      );
      expect(list.status).toBe(200);
      const tools = ((await list.json()) as { result: { tools: { name: string }[] } }).result.tools;
      expect(tools.map((t) => t.name)).toContain('get_car');
    }
  });
});
