import type { Knex } from 'knex';

const ts = (t: Knex.CreateTableBuilder, name: string) => t.timestamp(name, { useTz: true, precision: 3 });

function timestamps(t: Knex.CreateTableBuilder) {
  ts(t, 'created_at').notNullable();
  ts(t, 'updated_at').notNullable();
}

/** Lists are `WHERE team_id = ? [AND updated_at >= ?] ORDER BY updated_at DESC, id DESC`. */
function listIndex(t: Knex.CreateTableBuilder, table: string) {
  t.index(['team_id', 'updated_at', 'id'], `${table}_team_updated_idx`);
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('teams', (t) => {
    t.uuid('id').primary();
    t.text('name').notNullable();
    t.boolean('api_enabled').notNullable().defaultTo(true);
    timestamps(t);
  });

  await knex.schema.createTable('api_keys', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id');
    t.text('name').notNullable();
    t.text('prefix').notNullable().unique();
    t.text('secret_hash').notNullable();
    t.jsonb('scopes').notNullable();
    ts(t, 'expires_at');
    ts(t, 'revoked_at');
    ts(t, 'last_used_at');
    timestamps(t);
    t.index(['team_id']);
  });

  await knex.schema.createTable('locations', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id');
    t.text('name').notNullable();
    for (const c of ['address', 'city', 'state', 'zip', 'phone', 'timezone']) t.text(c);
    t.boolean('is_active').notNullable().defaultTo(true);
    t.integer('sort_order');
    timestamps(t);
    listIndex(t, 'locations');
  });

  await knex.schema.createTable('customers', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id');
    t.text('user_id');
    t.uuid('location_id').references('locations.id');
    t.text('first_name').notNullable();
    t.text('last_name').notNullable();
    for (const c of ['company_name', 'email', 'phone', 'address', 'city', 'state', 'zip', 'country']) t.text(c);
    t.boolean('is_active').notNullable().defaultTo(true);
    ts(t, 'deleted_at');
    timestamps(t);
    listIndex(t, 'customers');
  });

  await knex.schema.createTable('contacts', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id');
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
    timestamps(t);
    listIndex(t, 'contacts');
    t.index(['team_id', 'customer_id']);
  });

  await knex.schema.createTable('cars', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id');
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
    timestamps(t);
    listIndex(t, 'cars');
    t.index(['team_id', 'vin']);
    t.index(['team_id', 'stock_number']);
    t.index(['team_id', 'customer_id']);
  });

  await knex.schema.createTable('event_types', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id');
    t.text('value').notNullable();
    t.text('name').notNullable();
    t.text('scope').notNullable();
    t.boolean('requires_parking_spot').notNullable().defaultTo(false);
    t.boolean('is_default').notNullable().defaultTo(false);
    timestamps(t);
    t.unique(['team_id', 'value']);
    listIndex(t, 'event_types');
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['event_types', 'cars', 'contacts', 'customers', 'locations', 'api_keys', 'teams']) {
    await knex.schema.dropTableIfExists(table);
  }
}
