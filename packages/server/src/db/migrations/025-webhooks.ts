import type { Knex } from 'knex';
import { countTeamRows } from './resource-table.js';
import { createTeamTable, ts } from './team-table.js';

/** Tables of this migration whose unfiltered list answers `total` from the row counts of migration 023. */
export const WEBHOOK_COUNTED_TABLES = ['webhooks'] as const;

/**
 * The `webhooks` extension. `webhooks` holds the endpoints, with what the API never shows: the signing
 * secret, the read scopes of the key that created it (the events it may be sent) and its cursor in the
 * team's events feed (the last event fanned out to it). `webhook_deliveries` holds one row per event and
 * endpoint: UNIQUE (webhook_id, event_id), so instances fanning out the same event concurrently create one
 * delivery; `lease_until`/`lease_token` mark the one instance attempting it. Neither table records events:
 * they are settings and bookkeeping, not the team's records.
 */
export async function up(knex: Knex): Promise<void> {
  await createTeamTable(knex, 'webhooks', (t) => {
    t.text('url').notNullable();
    t.text('description');
    t.jsonb('event_types').notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.text('disabled_reason');
    t.text('secret').notNullable();
    t.jsonb('read_scopes').notNullable();
    t.bigInteger('cursor').notNullable().defaultTo(0);
    t.integer('consecutive_failures').notNullable().defaultTo(0);
  });
  // The dispatcher's scan: enabled endpoints whose team's feed has moved past their cursor.
  await knex.raw('create index webhooks_enabled_idx on webhooks (team_id) where enabled');
  // A new, empty table: counting its rows already there adds nothing.
  for (const table of WEBHOOK_COUNTED_TABLES) await countTeamRows(knex, table);

  await createTeamTable(
    knex,
    'webhook_deliveries',
    (t) => {
      t.uuid('webhook_id').notNullable().references('webhooks.id').onDelete('CASCADE');
      t.uuid('event_id').notNullable();
      t.bigInteger('event_cursor').notNullable();
      t.text('event_type').notNullable();
      // The event's JSON exactly as first sent: every retry signs and sends the same bytes.
      t.text('payload').notNullable();
      t.text('status').notNullable().defaultTo('pending');
      t.integer('attempts').notNullable().defaultTo(0);
      t.integer('last_response_status');
      t.text('last_error');
      ts(t, 'next_attempt_at');
      ts(t, 'first_attempt_at');
      ts(t, 'lease_until');
      t.uuid('lease_token');
      t.unique(['webhook_id', 'event_id'], { indexName: 'webhook_deliveries_webhook_event_key' });
      t.index(['webhook_id', 'updated_at', 'id'], 'webhook_deliveries_log_idx');
    },
    { listIndex: false },
  );
  await knex.raw(
    `create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('webhook_deliveries');
  for (const table of WEBHOOK_COUNTED_TABLES) {
    await knex.raw(`drop trigger if exists ${table}_count_inserts on ${table}`);
    await knex.raw(`drop trigger if exists ${table}_count_deletes on ${table}`);
  }
  await knex.schema.dropTableIfExists('webhooks');
}
