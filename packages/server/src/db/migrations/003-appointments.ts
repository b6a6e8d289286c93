import type { Knex } from 'knex';

const ts = (t: Knex.CreateTableBuilder, name: string) => t.timestamp(name, { useTz: true, precision: 3 });

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('appointment_types', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id');
    t.text('name').notNullable();
    t.uuid('event_type_id').notNullable().references('event_types.id');
    t.integer('duration_minutes');
    t.boolean('is_active').notNullable().defaultTo(true);
    ts(t, 'created_at').notNullable();
    ts(t, 'updated_at').notNullable();
    t.index(['team_id', 'updated_at', 'id'], 'appointment_types_team_updated_idx');
  });
  await knex.schema.createTable('appointments', (t) => {
    t.uuid('id').primary();
    t.uuid('team_id').notNullable().references('teams.id');
    t.uuid('event_type_id').notNullable().references('event_types.id');
    t.text('event_type').notNullable();
    t.uuid('appointment_type_id').references('appointment_types.id');
    t.uuid('car_id').references('cars.id');
    t.uuid('customer_id').references('customers.id');
    ts(t, 'start_at').notNullable();
    ts(t, 'end_at').notNullable();
    t.text('status').notNullable();
    t.text('notes');
    t.uuid('session_id').notNullable().unique();
    ts(t, 'cancelled_at');
    ts(t, 'created_at').notNullable();
    ts(t, 'updated_at').notNullable();
    t.index(['team_id', 'updated_at', 'id'], 'appointments_team_updated_idx');
    t.index(['team_id', 'start_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('appointments');
  await knex.schema.dropTableIfExists('appointment_types');
}
