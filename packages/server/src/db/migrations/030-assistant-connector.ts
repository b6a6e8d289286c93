import type { Knex } from 'knex';
import { createTeamTable, timestamps, ts } from './team-table.js';

/**
 * The assistant connector (MCP with OAuth sign-in). `team_members` sign in and may grant an assistant at
 * most their `scopes`; `oauth_clients` are the assistants registered (RFC 7591); an `oauth_grants` row is
 * what one member allowed one client, and its tokens act with exactly its scopes. Codes and tokens are
 * stored only as SHA-256 hashes of their random values. Every check reads these rows, so a revoked grant,
 * a deleted member or a team's API switch acts on the next request of every instance.
 *
 * `idempotency_keys.api_key_id` names the credential a key was claimed with, a grant as well as an API key
 * (both UUIDs, never equal): its foreign key to `api_keys` goes.
 */
export async function up(knex: Knex): Promise<void> {
  await createTeamTable(
    knex,
    'team_members',
    (t) => {
      t.text('email').notNullable().unique();
      t.text('password_hash').notNullable();
      t.jsonb('scopes').notNullable();
      t.index(['team_id', 'created_at']);
    },
    { listIndex: false },
  );

  await knex.schema.createTable('oauth_clients', (t) => {
    t.text('client_id').primary();
    t.jsonb('metadata').notNullable();
    timestamps(t);
  });

  await createTeamTable(
    knex,
    'oauth_grants',
    (t) => {
      t.uuid('member_id').notNullable().references('team_members.id').onDelete('CASCADE');
      t.text('client_id').notNullable().references('oauth_clients.client_id').onDelete('CASCADE');
      t.jsonb('scopes').notNullable();
      t.text('resource').notNullable();
      ts(t, 'last_used_at');
      ts(t, 'revoked_at');
      t.index(['team_id', 'created_at']);
      t.index(['member_id']);
    },
    { listIndex: false },
  );

  // A sign-in in progress: the authorization request, then the member who signed in, until consent.
  await knex.schema.createTable('oauth_requests', (t) => {
    t.text('id_hash').primary();
    t.text('client_id').notNullable().references('oauth_clients.client_id').onDelete('CASCADE');
    t.jsonb('params').notNullable();
    t.text('csrf_token').notNullable();
    t.uuid('member_id').references('team_members.id').onDelete('CASCADE');
    ts(t, 'expires_at').notNullable();
    ts(t, 'created_at').notNullable();
  });

  await knex.schema.createTable('oauth_codes', (t) => {
    t.text('code_hash').primary();
    t.uuid('grant_id').notNullable().references('oauth_grants.id').onDelete('CASCADE');
    t.text('code_challenge').notNullable();
    t.text('redirect_uri').notNullable();
    ts(t, 'expires_at').notNullable();
    ts(t, 'used_at');
    ts(t, 'created_at').notNullable();
  });

  await knex.schema.createTable('oauth_tokens', (t) => {
    t.text('token_hash').primary();
    t.uuid('grant_id').notNullable().references('oauth_grants.id').onDelete('CASCADE');
    t.text('kind').notNullable();
    ts(t, 'expires_at').notNullable();
    // A refresh token is used once: it is rotated, and a second use revokes the whole grant.
    ts(t, 'used_at');
    ts(t, 'created_at').notNullable();
    t.index(['grant_id']);
  });

  await knex.raw('alter table idempotency_keys drop constraint if exists idempotency_keys_api_key_id_foreign');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'oauth_tokens',
    'oauth_codes',
    'oauth_requests',
    'oauth_grants',
    'oauth_clients',
    'team_members',
  ])
    await knex.schema.dropTableIfExists(table);
}
