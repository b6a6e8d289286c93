import type { Knex } from 'knex';
import { createTeamTable, ts } from './team-table.js';

export async function up(knex: Knex): Promise<void> {
  await createTeamTable(knex, 'communication_threads', (t) => {
    t.uuid('customer_id').notNullable().references('customers.id');
    t.text('channel').notNullable();
    t.text('subject');
    ts(t, 'last_message_at');
    t.index(['team_id', 'customer_id', 'channel']);
  });
  await createTeamTable(knex, 'communication_messages', (t) => {
    t.uuid('thread_id').notNullable().references('communication_threads.id');
    t.uuid('customer_id').notNullable().references('customers.id');
    t.text('channel').notNullable();
    t.text('direction').notNullable();
    t.text('from');
    t.text('to').notNullable();
    t.text('body');
    t.text('subject');
    t.text('html_body');
    t.text('text_body');
    t.jsonb('media_urls').notNullable().defaultTo('[]');
    t.text('status').notNullable();
    t.text('provider');
    t.text('provider_message_sid');
    t.text('error');
    // Set by campaign sends (012); no foreign key here, since campaign tables come later.
    t.uuid('campaign_send_id');
    ts(t, 'sent_at');
    t.index(['thread_id', 'updated_at', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('communication_messages');
  await knex.schema.dropTableIfExists('communication_threads');
}
