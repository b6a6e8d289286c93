import type { Knex } from 'knex';

/**
 * Webhooks act with their creating key's standing, and deliveries are shared fairly.
 * `webhooks.api_key_id`: the key the endpoint acts for (it created it, or enabled it again); null for an
 * endpoint from before this migration or created by an assistant's grant. A revoked or expired key disables
 * its endpoints, and each delivery reads only what the key's current scopes read. The partial indexes serve
 * the fair claim: each endpoint's due deliveries, and the attempts under way (a live lease) per team and
 * endpoint, which the dispatcher's caps count.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table webhooks add column api_key_id uuid');
  await knex.raw('create index webhooks_api_key_idx on webhooks (api_key_id) where enabled');
  // The fair claim's per-endpoint read: an endpoint's due deliveries, oldest first.
  await knex.raw(
    `create index webhook_deliveries_endpoint_due_idx on webhook_deliveries (webhook_id, next_attempt_at) where status = 'pending'`,
  );
  await knex.raw(
    'create index webhook_deliveries_leased_idx on webhook_deliveries (lease_until, team_id, webhook_id) where lease_until is not null',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists webhook_deliveries_leased_idx');
  await knex.raw('drop index if exists webhook_deliveries_endpoint_due_idx');
  await knex.raw('drop index if exists webhooks_api_key_idx');
  await knex.raw('alter table webhooks drop column if exists api_key_id');
}
