import type { Knex } from 'knex';
import { createTeamTable, ts } from './team-table.js';

export async function up(knex: Knex): Promise<void> {
  await createTeamTable(knex, 'appointment_types', (t) => {
    t.text('name').notNullable();
    t.uuid('event_type_id').notNullable().references('event_types.id');
    t.integer('duration_minutes');
    t.boolean('is_active').notNullable().defaultTo(true);
  });
  await createTeamTable(knex, 'appointments', (t) => {
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
    t.index(['team_id', 'start_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('appointments');
  await knex.schema.dropTableIfExists('appointment_types');
}
