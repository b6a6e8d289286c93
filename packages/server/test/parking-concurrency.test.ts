import { describe, expect, it } from 'vitest';
import type { TestServer } from '../src/testing/index.js';
import type { ApiCaller, ApiResponse } from './support/api-caller.js';
import { teamServer } from './support/team-server.js';

// Many requests race to put different cars into one free spot, through every path that takes a spot
// (a new car's parkingSpotId, a PATCH of a car's, a drop-off event): exactly one wins, every other one is
// a 409, and the database shows one car in the spot with one active stay. On PostgreSQL the requests
// really run at once. VSF_STRESS=1 runs more rounds with more contenders.
const STRESS = Boolean(process.env.VSF_STRESS);
const ROUNDS = STRESS ? 20 : 4;
const PER_PATH = STRESS ? 6 : 3;

let server: TestServer;
let api: ApiCaller;
let teamId: string;
let zoneId: string;

const car = { year: 1988, make: 'Porsche', model: '944' };

teamServer(async (team) => {
  ({ server, api, teamId } = team);
  zoneId = (await api('POST', '/parking-zones', { body: { name: 'Race hall' } })).body.data.id;
});

describe('one spot, many claimants', () => {
  it(`exactly one of ${PER_PATH * 3} concurrent placements through every path wins, ${ROUNDS} rounds`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const spot = (
        await api('POST', '/parking-spots', { body: { name: `R-${round}-${Date.now()}`, parkingZoneId: zoneId } })
      ).body.data;
      const patched: string[] = [];
      const dropped: string[] = [];
      for (let i = 0; i < PER_PATH; i++) {
        patched.push((await api('POST', '/cars', { body: car })).body.data.id);
        dropped.push((await api('POST', '/cars', { body: car })).body.data.id);
      }
      const claims: { path: string; carId?: string; run: () => Promise<ApiResponse> }[] = [
        ...Array.from({ length: PER_PATH }, () => ({
          path: 'POST /cars',
          run: () => api('POST', '/cars', { body: { ...car, model: `race-${round}`, parkingSpotId: spot.id } }),
        })),
        ...patched.map((carId) => ({
          path: 'PATCH /cars',
          carId,
          run: () => api('PATCH', `/cars/${carId}`, { body: { parkingSpotId: spot.id } }),
        })),
        ...dropped.map((carId) => ({
          path: 'drop-off',
          carId,
          run: () =>
            api('POST', `/cars/${carId}/events`, { body: { activityType: 'drop_off', parkingSpotId: spot.id } }),
        })),
      ];
      const results = await Promise.all(claims.map((c) => c.run()));
      const statuses = results.map((r) => r.status);
      const wins = results.map((r, i) => ({ r, claim: claims[i] })).filter(({ r }) => r.status < 300);
      expect(wins, JSON.stringify(statuses)).toHaveLength(1);
      expect(
        statuses.filter((s) => s === 409),
        JSON.stringify(results.map((r) => r.body)),
      ).toHaveLength(claims.length - 1);
      const win = wins[0] as (typeof wins)[number];
      const winner = win.claim?.carId ?? (win.r.body as { data: { id: string } }).data.id;

      const holders = await server.db('cars').where({ team_id: teamId, parking_spot_id: spot.id }).select('id');
      expect(holders.map((h) => h.id)).toEqual([winner]);
      const active = await server
        .db('parking_assignments')
        .where({ parking_spot_id: spot.id })
        .whereNull('ended_at')
        .select('car_id');
      expect(active.map((a) => a.car_id)).toEqual([winner]);
      expect((await server.db('parking_spots').where({ id: spot.id }).first()).car_id).toBe(winner);
      // A refused new car was never created; a refused drop-off logged no event.
      const createdCars = await server
        .db('cars')
        .where({ team_id: teamId, model: `race-${round}` })
        .count({ n: '*' });
      expect(Number(createdCars[0]?.n)).toBe(win.claim?.path === 'POST /cars' ? 1 : 0);
      const events = await server.db('car_events').whereIn('car_id', dropped).count({ n: '*' });
      expect(Number(events[0]?.n)).toBe(win.claim?.path === 'drop-off' ? 1 : 0);
    }
  }, 120_000);
});
