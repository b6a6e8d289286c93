import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../src/db/connect-database.js';
import * as parkingIntegrity from '../src/db/migrations/021-parking-integrity.js';
import { migratedPglite } from '../src/testing/migrated-pglite.js';

// Migration 021 on a database that the old POST/PATCH /cars left inconsistent: it repairs the data, keeping
// every placement the rules would have accepted, and then the constraints hold. Runs on its own PGlite:
// it takes the constraints off and on again, which a shared PostgreSQL test database must not see.
let database: Database;
const at = new Date('2026-06-01T12:00:00Z');
const stamps = { created_at: at, updated_at: at };

beforeAll(async () => {
  database = connectDatabase({ pglite: await migratedPglite() });
});
afterAll(() => database?.close());

async function team() {
  const id = randomUUID();
  await database.knex('teams').insert({ id, name: `T-${id.slice(0, 6)}`, ...stamps });
  const zone = randomUUID();
  await database.knex('parking_zones').insert({ id: zone, team_id: id, name: 'Z', ...stamps });
  return { id, zone };
}
async function spot(teamId: string, zone: string, name: string) {
  const id = randomUUID();
  await database.knex('parking_spots').insert({ id, team_id: teamId, parking_zone_id: zone, name, ...stamps });
  return id;
}
async function car(teamId: string, fields: Record<string, unknown>, createdAt = at) {
  const id = randomUUID();
  await database.knex('cars').insert({
    id,
    team_id: teamId,
    year: 2000,
    make: 'M',
    model: 'X',
    created_at: createdAt,
    updated_at: createdAt,
    ...fields,
  });
  return id;
}
const carRow = (id: string) => database.knex('cars').where({ id }).first();
const activeStays = (carId: string) =>
  database.knex('parking_assignments').where({ car_id: carId }).whereNull('ended_at').select();

describe('migration 021 (parking integrity)', () => {
  it('repairs what the unchecked car fields stored, then refuses it in the database', async () => {
    const knex = database.knex;
    await parkingIntegrity.down(knex);
    const mine = await team();
    const theirs = await team();
    const shared = await spot(mine.id, mine.zone, 'S-1');
    const held = await spot(mine.id, mine.zone, 'S-2');
    const foreignSpot = await spot(theirs.id, theirs.zone, 'T-1');

    // S-2 held through a drop-off (stay + spot), and a second car claiming it through its fields.
    const holder = await car(mine.id, { parking_spot_id: held, parking_zone_id: mine.zone, parking_spot: 'S-2' });
    await knex('parking_assignments').insert({
      id: randomUUID(),
      team_id: mine.id,
      car_id: holder,
      parking_spot_id: held,
      parking_zone_id: mine.zone,
      started_at: at,
      ...stamps,
    });
    await knex('parking_spots').where({ id: held }).update({ car_id: holder });
    const intruder = await car(mine.id, { parking_spot_id: held, parking_zone_id: mine.zone });
    // Two cars claiming the free S-1 through their fields: the first created keeps it.
    const first = await car(mine.id, { parking_spot_id: shared }, new Date('2026-01-01T00:00:00Z'));
    const second = await car(mine.id, { parking_spot_id: shared, parking_zone_id: mine.zone });
    // Another team's spot and zone, and dangling ids.
    const foreign = await car(mine.id, { parking_spot_id: foreignSpot, parking_zone_id: theirs.zone });
    const dangling = await car(mine.id, { parking_spot_id: randomUUID(), parking_zone_id: randomUUID() });
    // A zone-only placement through the fields is kept, with a stay.
    const zoned = await car(mine.id, { parking_zone_id: mine.zone });

    await parkingIntegrity.up(knex);

    expect(await carRow(holder)).toMatchObject({ parking_spot_id: held, parking_spot: 'S-2' });
    expect(await activeStays(holder)).toHaveLength(1);
    for (const id of [intruder, second, foreign, dangling]) {
      expect(await carRow(id)).toMatchObject({ parking_spot_id: null, parking_zone_id: null, parking_spot: null });
      expect((await carRow(id)).updated_at.getTime()).toBeGreaterThan(at.getTime());
      expect(await activeStays(id)).toEqual([]);
    }
    expect(await carRow(first)).toMatchObject({
      parking_spot_id: shared,
      parking_zone_id: mine.zone,
      parking_spot: 'S-1',
    });
    expect(await activeStays(first)).toEqual([
      expect.objectContaining({ parking_spot_id: shared, car_event_id: null }),
    ]);
    expect((await knex('parking_spots').where({ id: shared }).first()).car_id).toBe(first);
    expect(await carRow(zoned)).toMatchObject({ parking_zone_id: mine.zone, parking_spot_id: null });
    expect(await activeStays(zoned)).toHaveLength(1);

    await expect(knex('cars').where({ id: second }).update({ parking_spot_id: shared })).rejects.toMatchObject({
      code: '23505',
    });
    await expect(knex('cars').where({ id: second }).update({ parking_spot_id: foreignSpot })).rejects.toMatchObject({
      code: '23503',
    });
  });
});
