import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/index.js';
import { connectAssistant } from './support/assistant-client.js';

// A long poll checks its credential again before it answers (events-service.ts): through the assistant
// connector that credential is an OAuth access token, checked again as the connector's request checked it.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('a long poll through the assistant connector', () => {
  it('answers a waited call on the grant, not a refusal of the token as an API key', async () => {
    const team = await server.createTeam();
    const member = { email: `m-${Math.random().toString(36).slice(2)}@example.com`, password: 'correct horse battery' };
    expect(
      (await server.admin('POST', `/teams/${team.id}/members`, { ...member, scopes: ['read:locations'] })).status,
    ).toBe(201);
    const { client } = await connectAssistant(server.origin, member);
    const end = await client.callTool({ name: 'list_events', arguments: { limit: 0 } });
    expect(end.isError).toBeFalsy();
    const after = (end.structuredContent as { nextCursor: number }).nextCursor;
    const waited = await client.callTool({ name: 'list_events', arguments: { after, wait: 1 } });
    expect(waited.isError, JSON.stringify(waited.content)).toBeFalsy();
    expect(waited.structuredContent).toMatchObject({ data: [], nextCursor: after, hasMore: false });
  });
});
