import type { Knex } from 'knex';

const ts = (t: Knex.CreateTableBuilder, name: string) => t.timestamp(name, { useTz: true, precision: 3 });

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('communication_threads', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id');
    t.uuid('customer_id').notNullable().references('customers.id');
    t.text('channel').notNullable();
    t.text('subject');
    ts(t, 'last_message_at');
    ts(t, 'created_at').notNullable();
    ts(t, 'updated_at').notNullable();
    t.index(['team_id', 'updated_at', 'id'], 'communication_threads_team_updated_idx');
    t.index(['team_id', 'customer_id', 'channel']);
  });
  await knex.schema.createTable('communication_messages', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id');
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
    ts(t, 'created_at').notNullable();
    ts(t, 'updated_at').notNullable();
    t.index(['team_id', 'updated_at', 'id'], 'communication_messages_team_updated_idx');
    t.index(['thread_id', 'updated_at', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('communication_messages');
  await knex.schema.dropTableIfExists('communication_threads');
}
