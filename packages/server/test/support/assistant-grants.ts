import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { newSecret, secretHash } from '../../src/oauth/oauth-secrets.js';

/**
 * An assistant's access token with exactly `scopes`, written as the consent step writes it (member,
 * client, grant, token) without the forms: the generated suites need dozens of scope sets, and the
 * sign-in itself is proved end to end elsewhere (assistant-connector, assistant-security).
 */
export async function grantToken(db: Knex, teamId: string, scopes: readonly string[], origin: string): Promise<string> {
  const now = new Date();
  const memberId = randomUUID();
  const clientId = randomUUID();
  const grantId = randomUUID();
  const token = newSecret('access');
  await db('team_members').insert({
    id: memberId,
    team_id: teamId,
    email: `${memberId}@example.com`,
    password_hash: 'scrypt$unused',
    scopes: JSON.stringify(scopes),
    created_at: now,
    updated_at: now,
  });
  await db('oauth_clients').insert({
    client_id: clientId,
    metadata: JSON.stringify({ client_id: clientId, client_name: 'Suite', redirect_uris: ['http://127.0.0.1/cb'] }),
    created_at: now,
    updated_at: now,
  });
  await db('oauth_grants').insert({
    id: grantId,
    team_id: teamId,
    member_id: memberId,
    client_id: clientId,
    scopes: JSON.stringify(scopes),
    resource: `${origin}/mcp`,
    created_at: now,
    updated_at: now,
  });
  await db('oauth_tokens').insert({
    token_hash: secretHash(token),
    grant_id: grantId,
    kind: 'access',
    expires_at: new Date(now.getTime() + 3600_000),
    created_at: now,
  });
  return token;
}

export interface ToolAnswer {
  /** JSON-RPC level: a protocol error here is itself a failure of the connector. */
  protocolError?: unknown;
  isError: boolean;
  /** The API's error body with its status, when `isError`. */
  error?: { status: number; error: string; code?: string; details?: unknown };
  structuredContent?: unknown;
}

/** tools/list and tools/call over plain HTTP with the token, as any MCP client sends them. */
export function toolCaller(origin: string, token: string) {
  let id = 0;
  const rpc = async (method: string, params?: unknown) => {
    const res = await fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, ...(params ? { params } : {}) }),
    });
    if (res.status !== 200) throw new Error(`/mcp answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { result?: Record<string, unknown>; error?: unknown };
  };
  return {
    async list(): Promise<string[]> {
      const { result } = await rpc('tools/list');
      return ((result?.tools ?? []) as { name: string }[]).map((t) => t.name);
    },
    async call(name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
      const { result, error } = await rpc('tools/call', { name, arguments: args });
      if (error || !result) return { protocolError: error, isError: true };
      const text = ((result.content ?? []) as { type: string; text?: string }[]).find((c) => c.type === 'text')?.text;
      if (result.isError) return { isError: true, error: text ? JSON.parse(text) : undefined };
      return { isError: false, structuredContent: result.structuredContent };
    },
  };
}
