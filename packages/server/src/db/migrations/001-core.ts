import type { Knex } from 'knex';
import { createTeamTable, timestamps, ts } from './team-table.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('teams', (t) => {
    t.uuid('id').primary();
    t.text('name').notNullable();
    t.boolean('api_enabled').notNullable().defaultTo(true);
    timestamps(t);
  });

  await createTeamTable(
    knex,
    'api_keys',
    (t) => {
      t.text('name').notNullable();
      t.text('prefix').notNullable().unique();
      t.text('secret_hash').notNullable();
      t.jsonb('scopes').notNullable();
      ts(t, 'expires_at');
      ts(t, 'revoked_at');
      ts(t, 'last_used_at');
      t.index(['team_id']);
    },
    { listIndex: false },
  );

  await createTeamTable(knex, 'locations', (t) => {
    t.text('name').notNullable();
    for (const c of ['address', 'city', 'state', 'zip', 'phone', 'timezone']) t.text(c);
    t.boolean('is_active').notNullable().defaultTo(true);
    t.integer('sort_order');
  });

  await createTeamTable(knex, 'customers', (t) => {
    t.text('user_id');
    t.uuid('location_id').references('locations.id');
    t.text('first_name').notNullable();
    t.text('last_name').notNullable();
    for (const c of ['company_name', 'email', 'phone', 'address', 'city', 'state', 'zip', 'country']) t.text(c);
    t.boolean('is_active').notNullable().defaultTo(true);
    ts(t, 'deleted_at');
  });

  await createTeamTable(knex, 'contacts', (t) => {
    t.uuid('customer_id').notNullable().references('customers.id');
    t.text('first_name').notNullable();
    t.text('last_name').notNullable();
    t.text('email');
    t.text('phone');
    t.text('role').notNullable();
    t.text('role_description');
    t.boolean('is_primary').notNullable().defaultTo(false);
    t.boolean('can_access_portal').notNullable().defaultTo(false);
    t.jsonb('communication_preferences');
    t.index(['team_id', 'customer_id']);
  });

  await createTeamTable(knex, 'cars', (t) => {
    t.uuid('customer_id').references('customers.id');
    t.uuid('location_id').references('locations.id');
    for (const c of ['vin', 'stock_number']) t.text(c);
    t.integer('year').notNullable();
    t.text('make').notNullable();
    t.text('model').notNullable();
    for (const c of ['trim', 'color', 'license_plate', 'license_plate_state']) t.text(c);
    t.integer('mileage');
    t.text('mileage_units');
    t.text('parking_spot');
    t.uuid('parking_spot_id');
    t.uuid('parking_zone_id');
    t.uuid('vendor_id');
    t.boolean('is_for_sale').notNullable().defaultTo(false);
    t.bigInteger('declared_value_cents');
    t.index(['team_id', 'vin']);
    t.index(['team_id', 'stock_number']);
    t.index(['team_id', 'customer_id']);
  });

  await createTeamTable(knex, 'event_types', (t) => {
    t.text('value').notNullable();
    t.text('name').notNullable();
    t.text('scope').notNullable();
    t.boolean('requires_parking_spot').notNullable().defaultTo(false);
    t.boolean('is_default').notNullable().defaultTo(false);
    t.unique(['team_id', 'value']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['event_types', 'cars', 'contacts', 'customers', 'locations', 'api_keys', 'teams']) {
    await knex.schema.dropTableIfExists(table);
  }
}
