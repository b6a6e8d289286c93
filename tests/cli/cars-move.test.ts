// Issue 32 item 4 and the car lookups of item 6, through the built `vsf` against a real server: a car moves
// as a logged car event that its parking history shows, a spot is named as staff name it in `cars update`,
// `cars get` finds a VIN in any case and a plate, and zones get a location made with `vsf locations`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_SCOPES } from '@vsf/contract';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVsf } from './support/run-vsf.js';

const home = mkdtempSync(join(tmpdir(), 'vsf-cars-move-'));
let server: TestServer;
let key: string;
const spots: Record<string, string> = {};
let hallA: string;
let hallB: string;

const vsf = (args: string[]) =>
  runVsf(args, {
    env: { ...process.env, XDG_CONFIG_HOME: home, VSF_BASE_URL: server.baseUrl, VSF_API_KEY: key, NO_COLOR: '1' },
    cwd: home,
  });

async function api<T = { id: string }>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: T }).data;
}

interface Stay {
  parkingSpotId: string | null;
  parkingZoneId: string;
  carEventId: string | null;
  endedAt: string | null;
}
const stays = (carId: string) => api<Stay[]>('GET', `/parking-assignments?carId=${carId}&limit=50`);
const car = (id: string) =>
  api<{ parkingSpotId: string | null; parkingZoneId: string | null; parkingSpot: string | null }>('GET', `/cars/${id}`);

beforeAll(async () => {
  server = await startTestServer();
  key = (await server.createTeamWithKey(ALL_SCOPES)).key;
  hallA = (await api('POST', '/parking-zones', { name: 'Hall A' })).id;
  hallB = (await api('POST', '/parking-zones', { name: 'Hall B' })).id;
  for (const name of ['A-1', 'A-2', 'A-3'])
    spots[name] = (await api('POST', '/parking-spots', { name, parkingZoneId: hallA })).id;
});
afterAll(async () => {
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('vsf move', () => {
  it('moves a parked car to a spot by its label, logged as a car event that starts the new stay', async () => {
    const mustang = await api('POST', '/cars', {
      year: 1967,
      make: 'Ford',
      model: 'Mustang',
      vin: 'MOVE0000000000001',
    });
    const dropoff = await vsf(['dropoff', 'MOVE0000000000001', '--spot', 'A-1']);
    expect(dropoff.code, dropoff.stderr).toBe(0);

    const moved = await vsf(['move', 'MOVE0000000000001', '--spot', 'A-2', '--notes', 'A-1 needs the lift']);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stderr).toContain('Moved 1967 Ford Mustang from spot A-1 to spot A-2');
    const sessionId = moved.stdout.trim();

    expect(await car(mustang.id)).toMatchObject({ parkingSpotId: spots['A-2'], parkingSpot: 'A-2' });
    const events = await api<
      { id: string; activityType: string; parkingSpotId: string; notes: string; sessionId: string }[]
    >('GET', `/cars/${mustang.id}/events`);
    const move = events.find((e) => e.sessionId === sessionId);
    expect(move).toMatchObject({
      activityType: 'drop_off',
      parkingSpotId: spots['A-2'],
      notes: 'moved from spot A-1: A-1 needs the lift',
    });
    // The history: the stay in A-1 ended, the stay in A-2 is open and was started by the move's event.
    const history = await stays(mustang.id);
    expect(history.find((s) => s.parkingSpotId === spots['A-1'])?.endedAt).not.toBeNull();
    expect(history.find((s) => s.endedAt === null)).toMatchObject({
      parkingSpotId: spots['A-2'],
      carEventId: move?.id,
    });
  });

  it('moves a car out of its spot into another zone by name, and prints JSON with --json', async () => {
    const gt = await api('POST', '/cars', { year: 1966, make: 'Ford', model: 'GT40', stockNumber: 'MV-2' });
    expect((await vsf(['dropoff', 'MV-2', '--spot', 'A-3'])).code).toBe(0);
    const moved = await vsf(['move', 'MV-2', '--zone', 'Hall B', '--json']);
    expect(moved.code, moved.stderr).toBe(0);
    const out = JSON.parse(moved.stdout);
    expect(out).toMatchObject({ car: gt.id, from: 'spot A-3', to: 'zone Hall B' });
    expect(await car(gt.id)).toMatchObject({ parkingSpotId: null, parkingZoneId: hallB });
    expect((await stays(gt.id)).find((s) => s.endedAt === null)?.carEventId).toBe(out.event.id);
  });

  it('refuses, with what to do, a move to where the car is, of a car not parked, or without a place', async () => {
    await api('POST', '/cars', { year: 1970, make: 'Dodge', model: 'Charger', stockNumber: 'MV-3' });
    const notParked = await vsf(['move', 'MV-3', '--spot', 'A-3']);
    expect(notParked.code).toBe(2);
    expect(notParked.stderr).toContain('is not parked, so there is nothing to move');
    expect(notParked.stderr).toContain('vsf dropoff MV-3 --spot A-3');

    expect((await vsf(['dropoff', 'MV-3', '--spot', 'A-3'])).code).toBe(0);
    const same = await vsf(['move', 'MV-3', '--spot', 'A-3']);
    expect(same.code).toBe(2);
    expect(same.stderr).toContain('1970 Dodge Charger is already in spot A-3; nothing to move');

    const both = await vsf(['move', 'MV-3', '--spot', 'A-3', '--zone', 'Hall B']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('Pass exactly one of --spot or --zone');
    const unknownSpot = await vsf(['move', 'MV-3', '--spot', 'Z-99']);
    expect(unknownSpot.code).toBe(1);
    expect(unknownSpot.stderr).toContain('No parking spot named "Z-99"; see vsf parking spots list');
  });
});

describe('cars update --set parkingSpotId takes a spot label, as dropoff --spot does', () => {
  it('resolves the label to the spot, and names an unknown one', async () => {
    const cuda = await api('POST', '/cars', { year: 1970, make: 'Plymouth', model: 'Cuda', stockNumber: 'UPD-1' });
    const updated = await vsf(['cars', 'update', 'UPD-1', '--set', 'parkingSpotId=A-1', '--json']);
    expect(updated.code, updated.stderr).toBe(0);
    expect(JSON.parse(updated.stdout)).toMatchObject({ id: cuda.id, parkingSpotId: spots['A-1'], parkingSpot: 'A-1' });
    const unknown = await vsf(['cars', 'update', 'UPD-1', '--set', 'parkingSpotId=NOPE-1']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No parking spot named "NOPE-1"');
    const zone = await vsf(['cars', 'update', 'UPD-1', '--set', 'parkingZoneId=Hall B', '--json']);
    expect(zone.code, zone.stderr).toBe(0);
    expect(JSON.parse(zone.stdout)).toMatchObject({ parkingSpotId: null, parkingZoneId: hallB });
  });
});

describe('cars get finds a VIN in any case and a plate', () => {
  it('finds by lower-case VIN and by plate regardless of case, spaces and dashes', async () => {
    const bird = await api('POST', '/cars', {
      year: 1970,
      make: 'Plymouth',
      model: 'Superbird',
      vin: 'RM23V0A123456',
      licensePlate: 'B-AB 1234',
    });
    const byVin = await vsf(['cars', 'get', 'rm23v0a123456', '--json']);
    expect(byVin.code, byVin.stderr).toBe(0);
    expect(JSON.parse(byVin.stdout).id).toBe(bird.id);
    const byPlate = await vsf(['cars', 'get', 'bab1234', '--json']);
    expect(byPlate.code, byPlate.stderr).toBe(0);
    expect(JSON.parse(byPlate.stdout).id).toBe(bird.id);

    await api('POST', '/cars', { year: 1971, make: 'Plymouth', model: 'Roadrunner', licensePlate: 'BAB-1234' });
    const twice = await vsf(['cars', 'get', 'B AB 1234']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('Several cars match "B AB 1234" (VIN, stock number or plate)');
    expect(twice.stderr).toContain('plate BAB-1234');
  });
});

describe('vsf locations', () => {
  it('creates, lists and shows a location, and a zone is created in it by name', async () => {
    const created = await vsf(['locations', 'create', '--name', 'North Warehouse', '--set', 'city=Chicago', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const location = JSON.parse(created.stdout);
    expect(location).toMatchObject({ name: 'North Warehouse', city: 'Chicago' });

    const listed = await vsf(['locations', 'list']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/North Warehouse\tChicago/);
    const shown = await vsf(['locations', 'get', 'North Warehouse', '--json']);
    expect(JSON.parse(shown.stdout).id).toBe(location.id);

    const zone = await vsf([
      'parking',
      'zones',
      'create',
      '--name',
      'Hall N',
      '--location',
      'North Warehouse',
      '--json',
    ]);
    expect(zone.code, zone.stderr).toBe(0);
    expect(JSON.parse(zone.stdout).locationId).toBe(location.id);

    const bad = await vsf(['locations', 'create', '--name', 'X', '--set', 'sortOrder=first']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--set sortOrder: expected integer, got "first"');
  });
});
