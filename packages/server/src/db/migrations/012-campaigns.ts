import type { Knex } from 'knex';

const ts = (t: Knex.CreateTableBuilder, name: string) => t.timestamp(name, { useTz: true, precision: 3 });

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('templates', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id');
    t.text('name').notNullable();
    t.text('channel').notNullable();
    t.text('subject');
    t.text('body');
    t.text('html_body');
    t.jsonb('variables').notNullable().defaultTo('[]');
    t.boolean('is_active').notNullable().defaultTo(true);
    ts(t, 'created_at').notNullable();
    ts(t, 'updated_at').notNullable();
    t.index(['team_id', 'updated_at', 'id'], 'templates_team_updated_idx');
  });
  await knex.schema.createTable('campaigns', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id');
    t.text('name').notNullable();
    t.text('description');
    t.text('status').notNullable();
    ts(t, 'starts_at');
    ts(t, 'ends_at');
    ts(t, 'created_at').notNullable();
    ts(t, 'updated_at').notNullable();
    t.index(['team_id', 'updated_at', 'id'], 'campaigns_team_updated_idx');
  });
  await knex.schema.createTable('campaign_audiences', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id');
    t.uuid('campaign_id').notNullable().references('campaigns.id');
    t.text('name').notNullable();
    t.jsonb('filter').notNullable().defaultTo('{}');
    ts(t, 'created_at').notNullable();
    ts(t, 'updated_at').notNullable();
    t.index(['campaign_id', 'updated_at', 'id']);
  });
  await knex.schema.createTable('campaign_content_steps', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id');
    t.uuid('campaign_id').notNullable().references('campaigns.id');
    t.text('type').notNullable();
    t.text('name').notNullable();
    t.integer('order').notNullable();
    ts(t, 'scheduled_at');
    t.uuid('template_id').references('templates.id').onDelete('SET NULL');
    t.jsonb('content');
    ts(t, 'created_at').notNullable();
    ts(t, 'updated_at').notNullable();
    t.index(['campaign_id', 'updated_at', 'id']);
    t.index(['team_id', 'scheduled_at']);
  });
  await knex.schema.createTable('campaign_sends', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id');
    t.uuid('campaign_id').notNullable().references('campaigns.id');
    // One send per step: the unique index is what makes a repeated send return the first.
    t.uuid('content_step_id').notNullable().unique().references('campaign_content_steps.id');
    t.uuid('audience_id').notNullable().references('campaign_audiences.id');
    t.text('channel').notNullable();
    t.text('status').notNullable();
    t.integer('recipient_count').notNullable();
    t.integer('sent_count').notNullable();
    t.integer('failed_count').notNullable();
    t.integer('skipped_count').notNullable();
    ts(t, 'created_at').notNullable();
    ts(t, 'updated_at').notNullable();
    t.index(['campaign_id', 'updated_at', 'id']);
  });
  await knex.schema.alterTable('communication_messages', (t) => {
    t.foreign('campaign_send_id').references('campaign_sends.id');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('communication_messages', (t) => t.dropForeign(['campaign_send_id']));
  for (const table of ['campaign_sends', 'campaign_content_steps', 'campaign_audiences', 'campaigns', 'templates'])
    await knex.schema.dropTableIfExists(table);
}
