import { describe, expect, it } from 'vitest';
import { connectAssistant } from './support/assistant-client.js';
import { useTestServer } from './support/test-server.js';

// A long poll checks its credential again before it answers (events-service.ts): through the assistant
// connector that credential is an OAuth access token, checked again as the connector's request checked it.
const suite = useTestServer();

describe('a long poll through the assistant connector', () => {
  it('answers a waited call on the grant, not a refusal of the token as an API key', async () => {
    const team = await suite.server.createTeam();
    const member = { email: `m-${Math.random().toString(36).slice(2)}@example.com`, password: 'correct horse battery' };
    expect(
      (await suite.server.admin('POST', `/teams/${team.id}/members`, { ...member, scopes: ['read:locations'] })).status,
    ).toBe(201);
    const { client } = await connectAssistant(suite.server.origin, member);
    const end = await client.callTool({ name: 'list_events', arguments: { limit: 0 } });
    expect(end.isError).toBeFalsy();
    const after = (end.structuredContent as { nextCursor: number }).nextCursor;
    const waited = await client.callTool({ name: 'list_events', arguments: { after, wait: 1 } });
    expect(waited.isError, JSON.stringify(waited.content)).toBeFalsy();
    expect(waited.structuredContent).toMatchObject({ data: [], nextCursor: after, hasMore: false });
  });
});
