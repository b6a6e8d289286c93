import type { Knex } from 'knex';
import { ts } from './team-table.js';

/** `id`, `team_id`, the timestamps and the list index every team-owned table has. */
function teamRecord(t: Knex.CreateTableBuilder, table: string) {
  t.uuid('id').primary();
  t.uuid('team_id').notNullable().references('teams.id');
  ts(t, 'created_at').notNullable();
  ts(t, 'updated_at').notNullable();
  t.index(['team_id', 'updated_at', 'id'], `${table}_team_updated_idx`);
}

/** Forms and submissions, social events (RSVP options, invites, RSVPs), social accounts and posts, assets. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('forms', (t) => {
    teamRecord(t, 'forms');
    t.text('name').notNullable();
    t.text('description');
    t.jsonb('fields').notNullable();
    t.boolean('is_active').notNullable().defaultTo(true);
  });
  await knex.schema.createTable('form_submissions', (t) => {
    teamRecord(t, 'form_submissions');
    t.uuid('form_id').notNullable().references('forms.id');
    t.uuid('customer_id').references('customers.id');
    t.text('respondent_email');
    t.text('respondent_name');
    t.text('respondent_phone');
    t.jsonb('values').notNullable();
    t.jsonb('field_snapshot').notNullable();
    t.jsonb('metadata').notNullable();
    ts(t, 'submitted_at').notNullable();
    t.index(['team_id', 'form_id', 'updated_at', 'id']);
  });

  await knex.schema.createTable('social_events', (t) => {
    teamRecord(t, 'social_events');
    t.text('name').notNullable();
    t.text('description');
    ts(t, 'starts_at').notNullable();
    ts(t, 'ends_at');
    t.uuid('location_id').references('locations.id');
    t.text('venue');
    t.integer('capacity');
    t.text('status').notNullable();
    t.index(['team_id', 'starts_at']);
  });
  await knex.schema.createTable('social_event_rsvp_options', (t) => {
    teamRecord(t, 'social_event_rsvp_options');
    t.uuid('event_id').notNullable().references('social_events.id');
    t.text('label').notNullable();
    t.text('description');
    t.boolean('attending').notNullable();
    t.integer('sort_order').notNullable();
    t.index(['event_id']);
  });
  await knex.schema.createTable('social_event_invites', (t) => {
    teamRecord(t, 'social_event_invites');
    t.uuid('event_id').notNullable().references('social_events.id');
    t.uuid('customer_id').notNullable().references('customers.id');
    t.uuid('contact_id').references('contacts.id');
    t.text('note');
    t.index(['event_id']);
  });
  // One invite per guest and event: a customer's own, and each of its contacts'.
  await knex.raw(
    'create unique index social_event_invites_one_per_customer on social_event_invites (event_id, customer_id) where contact_id is null',
  );
  await knex.raw(
    'create unique index social_event_invites_one_per_contact on social_event_invites (event_id, contact_id) where contact_id is not null',
  );
  await knex.schema.createTable('social_event_rsvps', (t) => {
    teamRecord(t, 'social_event_rsvps');
    t.uuid('event_id').notNullable().references('social_events.id');
    t.uuid('rsvp_option_id').notNullable().references('social_event_rsvp_options.id');
    t.uuid('invite_id').unique().references('social_event_invites.id');
    t.uuid('customer_id').references('customers.id');
    t.uuid('contact_id').references('contacts.id');
    t.text('name');
    t.text('email');
    t.integer('guest_count').notNullable();
    t.text('note');
    ts(t, 'responded_at').notNullable();
    t.index(['event_id']);
  });

  await knex.schema.createTable('social_accounts', (t) => {
    teamRecord(t, 'social_accounts');
    t.text('network').notNullable();
    t.text('handle').notNullable();
    t.text('display_name');
    t.text('profile_url');
    t.boolean('is_active').notNullable();
    t.unique(['team_id', 'network', 'handle']);
  });
  await knex.schema.createTable('social_posts', (t) => {
    teamRecord(t, 'social_posts');
    t.uuid('social_account_id').notNullable().references('social_accounts.id');
    t.text('network').notNullable();
    t.text('body').notNullable();
    t.jsonb('media_urls').notNullable();
    ts(t, 'scheduled_at');
    t.text('status').notNullable();
    t.text('provider');
    t.text('provider_post_id');
    t.text('error');
    ts(t, 'published_at');
    t.index(['team_id', 'scheduled_at']);
  });
  // What the default (outbox) social provider "published": kept even when the post is deleted later.
  await knex.schema.createTable('social_outbox', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id');
    t.uuid('social_post_id').notNullable();
    t.text('network').notNullable();
    t.text('handle').notNullable();
    t.text('body').notNullable();
    t.jsonb('media_urls').notNullable();
    ts(t, 'created_at').notNullable();
    t.index(['team_id', 'social_post_id']);
  });

  await knex.schema.createTable('asset_folders', (t) => {
    teamRecord(t, 'asset_folders');
    t.text('name').notNullable();
    t.uuid('parent_id').references('asset_folders.id');
    t.index(['parent_id']);
  });
  // The bytes and their type live in `media` (kind 'asset'); an asset shares its media row's id.
  await knex.schema.createTable('marketing_assets', (t) => {
    teamRecord(t, 'marketing_assets');
    t.foreign('id').references('media.id');
    t.uuid('folder_id').references('asset_folders.id');
    t.text('name').notNullable();
    t.index(['folder_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'marketing_assets',
    'asset_folders',
    'social_outbox',
    'social_posts',
    'social_accounts',
    'social_event_rsvps',
    'social_event_invites',
    'social_event_rsvp_options',
    'social_events',
    'form_submissions',
    'forms',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
