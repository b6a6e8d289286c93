import { describe, expect, it } from 'vitest';
import type { TestServer } from '../src/testing/index.js';
import type { ApiCaller } from './support/api-caller.js';
import { teamServer } from './support/team-server.js';
import { snapshotTeamData } from './support/team-snapshot.js';

// occurredAt may backdate an event, but never into the future beyond clock skew, and never so that the
// parking history contradicts itself: a stay ending before it started, or two stays of one car or of one
// spot overlapping. Each refusal stores nothing.
let server: TestServer;
let api: ApiCaller;
let teamId: string;
let zoneId: string;

const MINUTE = 60_000;
const ago = (minutes: number) => new Date(Date.now() - minutes * MINUTE).toISOString();
const newCar = async () =>
  (await api('POST', '/cars', { body: { year: 1970, make: 'Citroën', model: 'SM' } })).body.data.id as string;
const newSpot = async () =>
  (
    await api('POST', '/parking-spots', {
      body: { name: `H-${Math.random().toString(36).slice(2, 8)}`, parkingZoneId: zoneId },
    })
  ).body.data.id as string;
const event = (carId: string, body: Record<string, unknown>) => api('POST', `/cars/${carId}/events`, { body });

teamServer(async (team) => {
  ({ server, api, teamId } = team);
  zoneId = (await api('POST', '/parking-zones', { body: { name: 'History hall' } })).body.data.id;
});

async function expectRefused(carId: string, body: Record<string, unknown>, status: number, match: RegExp) {
  const before = await snapshotTeamData(server.db, teamId);
  const res = await event(carId, body);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const message = status === 400 ? res.body.details[0].message : res.body.error;
  expect(message).toMatch(match);
  expect(await snapshotTeamData(server.db, teamId)).toEqual(before);
}

describe('occurredAt', () => {
  it('refuses a time more than 5 minutes ahead of the server with 400, for any event', async () => {
    const carId = await newCar();
    const future = new Date(Date.now() + 6 * MINUTE).toISOString();
    await expectRefused(carId, { activityType: 'inspection', occurredAt: future }, 400, /in the future/);
    await expectRefused(carId, { activityType: 'drop_off', parkingZoneId: zoneId, occurredAt: future }, 400, /future/);
    const res = await api('POST', `/cars/${carId}/events`, {
      body: { activityType: 'drop_off', parkingZoneId: zoneId, occurredAt: '2999-01-01T00:00:00Z' },
    });
    expect(res.body.details).toEqual([expect.objectContaining({ path: 'occurredAt' })]);
  });

  it('accepts a time within the clock-skew allowance and any time in the past', async () => {
    const carId = await newCar();
    const skewed = new Date(Date.now() + 2 * MINUTE).toISOString();
    expect((await event(carId, { activityType: 'inspection', occurredAt: skewed })).status).toBe(201);
    expect((await event(carId, { activityType: 'inspection', occurredAt: '2001-01-01T00:00:00Z' })).status).toBe(201);
  });

  it('a backdated drop-off may not end the current stay before it started (the reported hole)', async () => {
    const carId = await newCar();
    const [first, second] = [await newSpot(), await newSpot()];
    expect((await event(carId, { activityType: 'drop_off', parkingSpotId: first, occurredAt: ago(60) })).status).toBe(
      201,
    );
    await expectRefused(
      carId,
      { activityType: 'drop_off', parkingSpotId: second, occurredAt: ago(120) },
      409,
      /before the car’s current parking stay started/,
    );
    // Later than the stay's start is a consistent move.
    expect((await event(carId, { activityType: 'drop_off', parkingSpotId: second, occurredAt: ago(30) })).status).toBe(
      201,
    );
    const stays = (await api('GET', '/parking-assignments', { query: { carId } })).body.data;
    for (const s of stays) if (s.endedAt) expect(Date.parse(s.endedAt)).toBeGreaterThanOrEqual(Date.parse(s.startedAt));
  });

  it('a backdated pick-up may not end the stay before it started', async () => {
    const carId = await newCar();
    await event(carId, { activityType: 'drop_off', parkingZoneId: zoneId, occurredAt: ago(10) });
    await expectRefused(carId, { activityType: 'pick_up', occurredAt: ago(20) }, 409, /cannot end before it starts/);
    expect((await event(carId, { activityType: 'pick_up', occurredAt: ago(5) })).status).toBe(201);
  });

  it("a new stay may not start before the car's previous stay ended", async () => {
    const carId = await newCar();
    await event(carId, { activityType: 'drop_off', parkingZoneId: zoneId, occurredAt: ago(60) });
    await event(carId, { activityType: 'pick_up', occurredAt: ago(30) });
    await expectRefused(
      carId,
      { activityType: 'drop_off', parkingZoneId: zoneId, occurredAt: ago(45) },
      409,
      /stays of a car cannot overlap/,
    );
  });

  it("a new stay in a spot may not start before the spot's previous stay ended", async () => {
    const spot = await newSpot();
    const [a, b] = [await newCar(), await newCar()];
    await event(a, { activityType: 'drop_off', parkingSpotId: spot, occurredAt: ago(60) });
    await event(a, { activityType: 'pick_up', occurredAt: ago(30) });
    await expectRefused(
      b,
      { activityType: 'drop_off', parkingSpotId: spot, occurredAt: ago(45) },
      409,
      /stays in a spot cannot overlap/,
    );
    expect((await event(b, { activityType: 'drop_off', parkingSpotId: spot, occurredAt: ago(20) })).status).toBe(201);
  });
});
