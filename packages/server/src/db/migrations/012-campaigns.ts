import type { Knex } from 'knex';
import { createTeamTable, ts } from './team-table.js';

export async function up(knex: Knex): Promise<void> {
  await createTeamTable(knex, 'templates', (t) => {
    t.text('name').notNullable();
    t.text('channel').notNullable();
    t.text('subject');
    t.text('body');
    t.text('html_body');
    t.jsonb('variables').notNullable().defaultTo('[]');
    t.boolean('is_active').notNullable().defaultTo(true);
  });
  await createTeamTable(knex, 'campaigns', (t) => {
    t.text('name').notNullable();
    t.text('description');
    t.text('status').notNullable();
    ts(t, 'starts_at');
    ts(t, 'ends_at');
  });
  await createTeamTable(
    knex,
    'campaign_audiences',
    (t) => {
      t.uuid('campaign_id').notNullable().references('campaigns.id');
      t.text('name').notNullable();
      t.jsonb('filter').notNullable().defaultTo('{}');
      t.index(['campaign_id', 'updated_at', 'id']);
    },
    { listIndex: false },
  );
  await createTeamTable(
    knex,
    'campaign_content_steps',
    (t) => {
      t.uuid('campaign_id').notNullable().references('campaigns.id');
      t.text('type').notNullable();
      t.text('name').notNullable();
      t.integer('order').notNullable();
      ts(t, 'scheduled_at');
      t.uuid('template_id').references('templates.id').onDelete('SET NULL');
      t.jsonb('content');
      t.index(['campaign_id', 'updated_at', 'id']);
      t.index(['team_id', 'scheduled_at']);
    },
    { listIndex: false },
  );
  await createTeamTable(
    knex,
    'campaign_sends',
    (t) => {
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
      t.index(['campaign_id', 'updated_at', 'id']);
    },
    { listIndex: false },
  );
  await knex.schema.alterTable('communication_messages', (t) => {
    t.foreign('campaign_send_id').references('campaign_sends.id');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('communication_messages', (t) => t.dropForeign(['campaign_send_id']));
  for (const table of ['campaign_sends', 'campaign_content_steps', 'campaign_audiences', 'campaigns', 'templates'])
    await knex.schema.dropTableIfExists(table);
}
