import { randomUUID } from 'node:crypto';
import { ALL_SCOPES, type Scope } from '@vsf/contract';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../src/testing/index.js';
import { type ApiCaller, apiCaller } from './support/api-caller.js';
import { teamServer } from './support/team-server.js';
import { snapshotTeamData } from './support/team-snapshot.js';

// A car's own parkingSpotId/parkingZoneId (POST/PATCH /cars) place it exactly as a drop-off does.
let server: TestServer;
let api: ApiCaller;
let teamId: string;
let zoneId: string;
let otherZoneId: string;
let carsOnly: ApiCaller;

const car = { year: 2003, make: 'BMW', model: 'Z4' };
const newCar = async (fields: Record<string, unknown> = {}) =>
  (await api('POST', '/cars', { body: { ...car, ...fields } })).body.data;
const newSpot = async (zone = zoneId) =>
  (
    await api('POST', '/parking-spots', {
      body: { name: `P-${Math.random().toString(36).slice(2, 8)}`, parkingZoneId: zone },
    })
  ).body.data;
const stays = async (query: Record<string, string>) =>
  (await api('GET', '/parking-assignments', { query: { limit: '200', ...query } })).body.data;

teamServer(async (team) => {
  ({ server, api, teamId } = team);
  zoneId = (await api('POST', '/parking-zones', { body: { name: 'Hall P' } })).body.data.id;
  otherZoneId = (await api('POST', '/parking-zones', { body: { name: 'Hall Q' } })).body.data.id;
  const scopes: Scope[] = ['read:cars', 'write:cars', 'read:parking'];
  carsOnly = apiCaller(server.baseUrl, (await server.createKey(teamId, scopes)).key);
});

describe('car location fields', () => {
  it('POST /cars with parkingSpotId parks the car: spot taken, stay started, zone and label filled in', async () => {
    const spot = await newSpot();
    const res = await api('POST', '/cars', { body: { ...car, parkingSpotId: spot.id } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ parkingSpotId: spot.id, parkingZoneId: zoneId, parkingSpot: spot.name });
    expect((await api('GET', `/parking-spots/${spot.id}`)).body.data.carId).toBe(res.body.data.id);
    expect(await stays({ carId: res.body.data.id })).toEqual([
      expect.objectContaining({ parkingSpotId: spot.id, parkingZoneId: zoneId, endedAt: null, carEventId: null }),
    ]);
  });

  it('PATCH moves the car: the old stay ends, the old spot is freed; null takes it out of parking', async () => {
    const [first, second] = [await newSpot(), await newSpot()];
    const { id } = await newCar({ parkingSpotId: first.id });
    const moved = await api('PATCH', `/cars/${id}`, { body: { parkingSpotId: second.id } });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ parkingSpotId: second.id, parkingSpot: second.name });
    expect((await api('GET', `/parking-spots/${first.id}`)).body.data.carId).toBeNull();
    expect((await api('GET', `/parking-spots/${second.id}`)).body.data.carId).toBe(id);
    expect((await stays({ carId: id, active: 'true' })).map((s: { parkingSpotId: string }) => s.parkingSpotId)).toEqual(
      [second.id],
    );

    const zoneOnly = await api('PATCH', `/cars/${id}`, { body: { parkingSpotId: null, parkingZoneId: otherZoneId } });
    expect(zoneOnly.body.data).toMatchObject({ parkingSpotId: null, parkingZoneId: otherZoneId, parkingSpot: null });
    expect((await api('GET', `/parking-spots/${second.id}`)).body.data.carId).toBeNull();

    const out = await api('PATCH', `/cars/${id}`, { body: { parkingZoneId: null } });
    expect(out.body.data).toMatchObject({ parkingSpotId: null, parkingZoneId: null, parkingSpot: null });
    expect(await stays({ carId: id, active: 'true' })).toEqual([]);
    expect(await stays({ carId: id })).toHaveLength(3);
  });

  it('repeating the current place changes nothing (no new stay)', async () => {
    const spot = await newSpot();
    const { id } = await newCar({ parkingSpotId: spot.id });
    for (const body of [
      { parkingSpotId: spot.id },
      { parkingZoneId: zoneId },
      { parkingSpotId: spot.id, color: 'blue' },
    ]) {
      const res = await api('PATCH', `/cars/${id}`, { body });
      expect(res.status).toBe(200);
      expect(res.body.data.parkingSpotId).toBe(spot.id);
    }
    expect(await stays({ carId: id })).toHaveLength(1);
  });

  it('refuses a spot another car holds with 409, whichever path holds it, and stores nothing', async () => {
    const spot = await newSpot();
    const holder = await newCar({ parkingSpotId: spot.id });
    const other = await newCar();
    const before = await snapshotTeamData(server.db, teamId);
    const created = await api('POST', '/cars', { body: { ...car, parkingSpotId: spot.id } });
    expect(created.status).toBe(409);
    expect(created.body).toMatchObject({ code: 'conflict', details: { carId: holder.id } });
    const patched = await api('PATCH', `/cars/${other.id}`, { body: { parkingSpotId: spot.id, color: 'green' } });
    expect(patched.status).toBe(409);
    const dropped = await api('POST', `/cars/${other.id}/events`, {
      body: { activityType: 'drop_off', parkingSpotId: spot.id },
    });
    expect(dropped.status).toBe(409);
    expect(await snapshotTeamData(server.db, teamId)).toEqual(before);
  });

  it.each([
    ['an unknown spot', () => ({ parkingSpotId: randomUUID() }), 'parkingSpotId'],
    ['an unknown zone', () => ({ parkingZoneId: randomUUID() }), 'parkingZoneId'],
    [
      'a spot in another zone than the one sent',
      async () => ({ parkingSpotId: (await newSpot()).id, parkingZoneId: otherZoneId }),
      'parkingZoneId',
    ],
    [
      'a spot with a null zone',
      async () => ({ parkingSpotId: (await newSpot()).id, parkingZoneId: null }),
      'parkingZoneId',
    ],
  ])('refuses %s with 400 naming the field and stores nothing', async (_label, fields, path) => {
    const placement = await fields();
    const { id } = await newCar();
    const before = await snapshotTeamData(server.db, teamId);
    const res = await api('POST', '/cars', { body: { ...car, ...placement } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', details: [expect.objectContaining({ path })] });
    const patch = await api('PATCH', `/cars/${id}`, { body: { ...placement, color: 'plum' } });
    expect(patch.status).toBe(400);
    expect(patch.body.details[0].path).toBe(path);
    expect(await snapshotTeamData(server.db, teamId)).toEqual(before);
  });

  it("refuses another team's spot and zone with 400, for cars and events alike", async () => {
    const other = await server.createTeamWithKey(ALL_SCOPES);
    const foreign = apiCaller(server.baseUrl, other.key);
    const foreignZone = (await foreign('POST', '/parking-zones', { body: { name: 'Theirs' } })).body.data.id;
    const foreignSpot = (await foreign('POST', '/parking-spots', { body: { name: 'T-1', parkingZoneId: foreignZone } }))
      .body.data.id;
    const { id } = await newCar();
    const before = await snapshotTeamData(server.db, teamId);
    const theirs = await snapshotTeamData(server.db, other.team.id);
    for (const [method, path, body] of [
      ['POST', '/cars', { ...car, parkingSpotId: foreignSpot }],
      ['POST', '/cars', { ...car, parkingZoneId: foreignZone }],
      ['PATCH', `/cars/${id}`, { parkingSpotId: foreignSpot }],
      ['PATCH', `/cars/${id}`, { parkingZoneId: foreignZone }],
      ['POST', `/cars/${id}/events`, { activityType: 'drop_off', parkingSpotId: foreignSpot }],
      ['POST', `/cars/${id}/events`, { activityType: 'drop_off', parkingZoneId: foreignZone }],
    ] as const) {
      const res = await api(method, path, { body });
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.details[0].path).toBe(Object.keys(body).find((k) => k.startsWith('parking')));
    }
    expect(await snapshotTeamData(server.db, teamId)).toEqual(before);
    expect(await snapshotTeamData(server.db, other.team.id)).toEqual(theirs);
  });
});

describe('denormalised labels', () => {
  it('renaming a spot relabels the car in it and bumps its updatedAt, so updatedAfter syncs see it', async () => {
    const spot = await newSpot();
    const parked = await newCar({ parkingSpotId: spot.id });
    const elsewhere = await newCar({ parkingSpotId: (await newSpot()).id });
    const name = `R-${Math.random().toString(36).slice(2, 8)}`;
    const renamed = await api('PATCH', `/parking-spots/${spot.id}`, { body: { name } });
    expect(renamed.status).toBe(200);
    const after = (await api('GET', `/cars/${parked.id}`)).body.data;
    expect(after).toMatchObject({ parkingSpot: name, parkingSpotId: spot.id });
    expect(after.updatedAt > parked.updatedAt).toBe(true);
    const since = await api('GET', '/cars', { query: { updatedAfter: renamed.body.data.updatedAt } });
    expect(since.body.data.map((c: { id: string }) => c.id)).toContain(parked.id);
    expect((await api('GET', `/cars/${elsewhere.id}`)).body.data).toEqual(elsewhere);

    // A change that keeps the name leaves the car alone.
    await api('PATCH', `/parking-spots/${spot.id}`, { body: { name, isActive: true } });
    expect((await api('GET', `/cars/${parked.id}`)).body.data).toEqual(after);
  });

  it('a rename waits for a pick-up of the car in the spot (and the other way round) without deadlocking', async () => {
    const spots = await Promise.all(Array.from({ length: 4 }, () => newSpot()));
    const cars = await Promise.all(spots.map((spot) => newCar({ parkingSpotId: spot.id })));
    const results = await Promise.all(
      spots.flatMap((spot, i) => [
        api('POST', `/cars/${cars[i].id}/events`, { body: { activityType: 'pick_up' } }),
        api('PATCH', `/parking-spots/${spot.id}`, { body: { name: `${spot.name}-x` } }),
      ]),
    );
    expect(results.map((r) => r.status)).toEqual(spots.flatMap(() => [201, 200]));
    for (const c of cars) expect((await api('GET', `/cars/${c.id}`)).body.data.parkingSpot).toBeNull();
  });
});

describe('parking scopes', () => {
  it.each([
    ['POST /cars with parkingSpotId', async () => ['POST', '/cars', { ...car, parkingSpotId: (await newSpot()).id }]],
    ['POST /cars with parkingZoneId', async () => ['POST', '/cars', { ...car, parkingZoneId: zoneId }]],
    [
      'PATCH /cars with parkingSpotId',
      async () => ['PATCH', `/cars/${(await newCar()).id}`, { parkingSpotId: (await newSpot()).id }],
    ],
    [
      'PATCH /cars with parkingSpotId null',
      async () => [
        'PATCH',
        `/cars/${(await newCar({ parkingSpotId: (await newSpot()).id })).id}`,
        { parkingSpotId: null },
      ],
    ],
    [
      'a pick-up of a parked car',
      async () => [
        'POST',
        `/cars/${(await newCar({ parkingSpotId: (await newSpot()).id })).id}/events`,
        { activityType: 'pick_up' },
      ],
    ],
    [
      'a drop-off into a zone',
      async () => ['POST', `/cars/${(await newCar()).id}/events`, { activityType: 'drop_off', parkingZoneId: zoneId }],
    ],
  ])('%s with only cars scopes → 403 Missing scope: write:parking, nothing changed', async (_label, request) => {
    const [method, path, body] = (await request()) as [string, string, unknown];
    const before = await snapshotTeamData(server.db, teamId);
    const res = await carsOnly(method, path, { body });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Missing scope: write:parking', code: 'forbidden', details: null });
    expect(await snapshotTeamData(server.db, teamId)).toEqual(before);
  });

  it.each([
    ['a pick-up of a car in a zone', async () => [`/cars/${(await newCar({ parkingZoneId: zoneId })).id}/events`]],
    [
      'PATCH /cars with parkingZoneId null of a car in a spot',
      async () => [`/cars/${(await newCar({ parkingSpotId: (await newSpot()).id })).id}`, { parkingZoneId: null }],
    ],
  ])('%s with only cars scopes → 403 Missing scope: write:parking, nothing changed', async (_label, request) => {
    const [path, body = { activityType: 'pick_up' }] = (await request()) as [string, unknown?];
    const before = await snapshotTeamData(server.db, teamId);
    const res = await carsOnly(path.endsWith('/events') ? 'POST' : 'PATCH', path, { body });
    expect(res.body).toEqual({ error: 'Missing scope: write:parking', code: 'forbidden', details: null });
    expect(await snapshotTeamData(server.db, teamId)).toEqual(before);
  });

  it('a pick-up, or a null spot or zone, of a car that holds no place needs only the cars scopes', async () => {
    const { id } = await newCar();
    const pickUp = await carsOnly('POST', `/cars/${id}/events`, { body: { activityType: 'pick_up' } });
    expect(pickUp.status, JSON.stringify(pickUp.body)).toBe(201);
    expect(pickUp.body.data).toMatchObject({ activityType: 'pick_up', parkingSpotId: null, parkingZoneId: null });
    for (const body of [
      { parkingSpotId: null },
      { parkingZoneId: null },
      { parkingSpotId: null, parkingZoneId: null },
    ]) {
      const res = await carsOnly('PATCH', `/cars/${id}`, { body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const created = await carsOnly('POST', '/cars', { body: { ...car, parkingSpotId: null, parkingZoneId: null } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const parked = await api('GET', `/parking-assignments`, { query: { carId: id } });
    expect(parked.body.total).toBe(0);
  });

  it('cars scopes alone still create, update and log events that touch no parking', async () => {
    const res = await carsOnly('POST', '/cars', { body: car });
    expect(res.status).toBe(201);
    expect((await carsOnly('PATCH', `/cars/${res.body.data.id}`, { body: { color: 'teal' } })).status).toBe(200);
    const event = await carsOnly('POST', `/cars/${res.body.data.id}/events`, { body: { activityType: 'inspection' } });
    expect(event.status).toBe(201);
  });
});

describe('parking rules in the database', () => {
  it('a spot is named by at most one car, and only by a car of its own team', async () => {
    const spot = await newSpot();
    await newCar({ parkingSpotId: spot.id });
    const [loose] = await server
      .db('cars')
      .insert({ id: randomUUID(), team_id: teamId, ...car, created_at: new Date(), updated_at: new Date() })
      .returning('id');
    await expect(server.db('cars').where({ id: loose.id }).update({ parking_spot_id: spot.id })).rejects.toMatchObject({
      code: '23505',
    });
    const other = await server.createTeam();
    const [foreignCar] = await server
      .db('cars')
      .insert({ id: randomUUID(), team_id: other.id, ...car, created_at: new Date(), updated_at: new Date() })
      .returning('id');
    const free = await newSpot();
    await expect(
      server.db('cars').where({ id: foreignCar.id }).update({ parking_spot_id: free.id }),
    ).rejects.toMatchObject({ code: '23503' });
    await expect(
      server.db('cars').where({ id: foreignCar.id }).update({ parking_zone_id: zoneId }),
    ).rejects.toMatchObject({ code: '23503' });
  });

  it('an occupied spot cannot move to another zone', async () => {
    const spot = await newSpot();
    await newCar({ parkingSpotId: spot.id });
    const res = await api('PATCH', `/parking-spots/${spot.id}`, { body: { parkingZoneId: otherZoneId } });
    expect(res.status).toBe(409);
    expect((await api('GET', `/parking-spots/${spot.id}`)).body.data.parkingZoneId).toBe(zoneId);
  });
});
