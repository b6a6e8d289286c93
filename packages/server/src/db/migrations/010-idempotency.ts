import type { Knex } from 'knex';

/** Stored responses of POSTs sent with an `Idempotency-Key`, replayed for 24 hours. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id');
    t.uuid('api_key_id').notNullable().references('api_keys.id');
    t.text('method').notNullable();
    t.text('path').notNullable();
    t.text('idempotency_key').notNullable();
    t.text('fingerprint').notNullable();
    t.integer('response_status').notNullable();
    t.jsonb('response_body').notNullable();
    t.jsonb('response_headers').notNullable();
    t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
    t.timestamp('expires_at', { useTz: true, precision: 3 }).notNullable();
    t.unique(['api_key_id', 'method', 'path', 'idempotency_key']);
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('idempotency_keys');
}
