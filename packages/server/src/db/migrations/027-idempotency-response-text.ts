import type { Knex } from 'knex';

/**
 * A replayed response is the first one as it was sent, key order included: `jsonb` stores objects with its
 * own key order (shortest first), so a replay came back reordered. Text keeps the JSON as written, and
 * PostgreSQL no longer parses a body it never looks into.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table idempotency_keys alter column response_body type text using response_body::text');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table idempotency_keys alter column response_body type jsonb using response_body::jsonb');
}
