import type { Knex } from 'knex';
import { createTeamTable, ts } from './team-table.js';

export async function up(knex: Knex): Promise<void> {
  await createTeamTable(knex, 'parking_zones', (t) => {
    t.uuid('location_id').references('locations.id');
    t.text('name').notNullable();
    t.text('description');
    t.integer('capacity');
    t.boolean('is_active').notNullable().defaultTo(true);
  });

  await createTeamTable(knex, 'parking_spots', (t) => {
    t.uuid('parking_zone_id').notNullable().references('parking_zones.id');
    t.text('name').notNullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    t.uuid('car_id').references('cars.id');
    t.unique(['team_id', 'name']);
    // A spot holds at most one car, and a car stands in at most one spot.
    t.unique(['car_id']);
  });

  await createTeamTable(
    knex,
    'car_events',
    (t) => {
      t.uuid('car_id').notNullable().references('cars.id');
      t.text('activity_type').notNullable();
      t.uuid('event_type_id').notNullable().references('event_types.id');
      t.uuid('parking_spot_id').references('parking_spots.id');
      t.uuid('parking_zone_id').references('parking_zones.id');
      t.text('notes');
      ts(t, 'occurred_at').notNullable();
      t.uuid('session_id').notNullable().unique();
      t.index(['team_id', 'car_id', 'updated_at', 'id']);
    },
    { listIndex: false },
  );

  await createTeamTable(knex, 'parking_assignments', (t) => {
    t.uuid('car_id').notNullable().references('cars.id');
    t.uuid('parking_spot_id').references('parking_spots.id');
    t.uuid('parking_zone_id').notNullable().references('parking_zones.id');
    t.uuid('car_event_id').references('car_events.id');
    ts(t, 'started_at').notNullable();
    ts(t, 'ended_at');
  });
  await knex.raw(
    'create unique index parking_assignments_one_active_per_car on parking_assignments (car_id) where ended_at is null',
  );
  await knex.raw(
    'create unique index parking_assignments_one_active_per_spot on parking_assignments (parking_spot_id) where ended_at is null and parking_spot_id is not null',
  );

  await createTeamTable(
    knex,
    'media',
    (t) => {
      t.text('kind').notNullable();
      t.uuid('car_id').references('cars.id');
      t.uuid('session_id');
      t.text('filename').notNullable();
      t.text('content_type').notNullable();
      t.integer('size_bytes').notNullable();
      t.text('storage_key').notNullable();
      t.index(['team_id', 'car_id', 'updated_at', 'id']);
    },
    { listIndex: false },
  );
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['media', 'parking_assignments', 'car_events', 'parking_spots', 'parking_zones']) {
    await knex.schema.dropTableIfExists(table);
  }
}
