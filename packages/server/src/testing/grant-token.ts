import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { newSecret, secretHash } from '../oauth/oauth-secrets.js';

/**
 * An assistant's access token with exactly `scopes`, written as the consent step writes it (member,
 * client, grant, token) without the forms: suites and benchmarks need many scope sets, and the
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
