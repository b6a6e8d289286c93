import { ALL_SCOPES, type Scope } from '@vsf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/index.js';
import { type ApiCaller, apiCaller } from './support/api-caller.js';
import { TINY_PNG } from './support/endpoint-fixtures.js';
import { snapshotTeamData } from './support/team-snapshot.js';

let server: TestServer;
let api: ApiCaller;
let teamId: string;
let zoneId: string;

const newCar = async () =>
  (await api('POST', '/cars', { body: { year: 2001, make: 'Honda', model: 'S2000' } })).body.data.id as string;
const newSpot = async (name = `S-${Math.random().toString(36).slice(2, 8)}`) =>
  (await api('POST', '/parking-spots', { body: { name, parkingZoneId: zoneId } })).body.data;
const dropOff = (carId: string, body: Record<string, unknown>, caller = api) =>
  caller('POST', `/cars/${carId}/events`, { body: { activityType: 'drop_off', ...body } });

beforeAll(async () => {
  server = await startTestServer();
  const created = await server.createTeamWithKey(ALL_SCOPES);
  teamId = created.team.id;
  api = apiCaller(server.baseUrl, created.key);
  zoneId = (await api('POST', '/parking-zones', { body: { name: 'Hall A', capacity: 40 } })).body.data.id;
});
afterAll(() => server?.close());

describe('drop-off and pick-up', () => {
  it('parks the car in the spot, starts a stay and returns a photo session', async () => {
    const carId = await newCar();
    const spot = await newSpot('A-1');
    const res = await dropOff(carId, { parkingSpotId: spot.id, notes: 'scratch on door' });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/api/v1/cars/${carId}/events/${res.body.data.id}`);
    expect(res.body.data).toMatchObject({
      activityType: 'drop_off',
      parkingSpotId: spot.id,
      parkingZoneId: zoneId,
      notes: 'scratch on door',
    });
    expect(res.body.data.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const car = (await api('GET', `/cars/${carId}`)).body.data;
    expect(car).toMatchObject({ parkingSpotId: spot.id, parkingZoneId: zoneId, parkingSpot: 'A-1' });
    expect((await api('GET', `/parking-spots/${spot.id}`)).body.data.carId).toBe(carId);
    const stays = (await api('GET', '/parking-assignments', { query: { carId, active: 'true' } })).body;
    expect(stays.total).toBe(1);
    expect(stays.data[0]).toMatchObject({ parkingSpotId: spot.id, endedAt: null, carEventId: res.body.data.id });
  });

  it('moving to another spot ends the previous stay and frees the old spot; pick-up clears the car', async () => {
    const carId = await newCar();
    const first = await newSpot();
    const second = await newSpot();
    await dropOff(carId, { parkingSpotId: first.id });
    await dropOff(carId, { parkingSpotId: second.id });
    expect((await api('GET', `/parking-spots/${first.id}`)).body.data.carId).toBeNull();
    const stays = (await api('GET', '/parking-assignments', { query: { carId } })).body.data;
    expect(stays).toHaveLength(2);
    expect(stays.filter((s: { endedAt: string | null }) => s.endedAt === null)).toHaveLength(1);

    const pickUp = await api('POST', `/cars/${carId}/events`, { body: { activityType: 'pick_up' } });
    expect(pickUp.status).toBe(201);
    expect((await api('GET', `/cars/${carId}`)).body.data).toMatchObject({
      parkingSpotId: null,
      parkingZoneId: null,
      parkingSpot: null,
    });
    expect((await api('GET', `/parking-spots/${second.id}`)).body.data.carId).toBeNull();
    expect((await api('GET', '/parking-assignments', { query: { carId, active: 'true' } })).body.total).toBe(0);
    expect((await api('GET', `/cars/${carId}/events`)).body.total).toBe(3);
  });

  it('parks in a zone without a spot', async () => {
    const carId = await newCar();
    const res = await dropOff(carId, { parkingZoneId: zoneId });
    expect(res.status).toBe(201);
    expect((await api('GET', `/cars/${carId}`)).body.data).toMatchObject({
      parkingZoneId: zoneId,
      parkingSpotId: null,
    });
  });

  it('refuses an occupied spot with 409 and changes nothing', async () => {
    const spot = await newSpot();
    const [a, b] = [await newCar(), await newCar()];
    await dropOff(a, { parkingSpotId: spot.id });
    const before = await snapshotTeamData(server.db, teamId);
    const res = await dropOff(b, { parkingSpotId: spot.id });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'conflict', details: { carId: a } });
    expect(await snapshotTeamData(server.db, teamId)).toEqual(before);
  });

  it('lets exactly one of two concurrent drop-offs into one spot win, with nothing half-written', async () => {
    for (let round = 0; round < 5; round++) {
      const spot = await newSpot();
      const cars = [await newCar(), await newCar()];
      const results = await Promise.all(cars.map((carId) => dropOff(carId, { parkingSpotId: spot.id })));
      expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
      const winner = cars[results.findIndex((r) => r.status === 201)];
      const loser = cars[results.findIndex((r) => r.status === 409)];
      expect((await api('GET', `/parking-spots/${spot.id}`)).body.data.carId).toBe(winner);
      expect((await api('GET', `/cars/${loser}`)).body.data.parkingSpotId).toBeNull();
      expect((await api('GET', `/cars/${loser}/events`)).body.total).toBe(0);
      expect((await api('GET', '/parking-assignments', { query: { parkingSpotId: spot.id } })).body.total).toBe(1);
    }
  });

  it.each([
    [{}, 'parkingSpotId'],
    [{ parkingSpotId: 'x' }, 'parkingSpotId'],
    [{ activityType: 'teleport' }, 'activityType'],
    [{ activityType: 'customer_consultation' }, 'activityType'],
  ])('rejects %o with 400', async (body, path) => {
    const carId = await newCar();
    const spot = await newSpot();
    const payload = 'parkingSpotId' in body || 'activityType' in body ? body : {};
    const res = await api('POST', `/cars/${carId}/events`, {
      body: {
        activityType: 'drop_off',
        ...(Object.keys(payload).length ? payload : {}),
        ...(path === 'activityType' ? { parkingSpotId: spot.id } : {}),
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('rejects both a spot and a zone at once', async () => {
    const res = await dropOff(await newCar(), { parkingSpotId: (await newSpot()).id, parkingZoneId: zoneId });
    expect(res.status).toBe(400);
  });

  it('needs write:parking to assign a spot, on top of read:cars and write:cars', async () => {
    const scopes: Scope[] = ['read:cars', 'write:cars'];
    const narrow = apiCaller(server.baseUrl, (await server.createKey(teamId, scopes)).key);
    const carId = await newCar();
    const res = await dropOff(carId, { parkingSpotId: (await newSpot()).id }, narrow);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Missing scope: write:parking');
    const inspection = await narrow('POST', `/cars/${carId}/events`, { body: { activityType: 'inspection' } });
    expect(inspection.status).toBe(201);
  });

  it('refuses to delete an occupied spot or a zone with spots', async () => {
    const spot = await newSpot();
    await dropOff(await newCar(), { parkingSpotId: spot.id });
    expect((await api('DELETE', `/parking-spots/${spot.id}`)).status).toBe(409);
    expect((await api('DELETE', `/parking-zones/${zoneId}`)).status).toBe(409);
    const empty = await newSpot();
    expect((await api('DELETE', `/parking-spots/${empty.id}`)).status).toBe(200);
  });
});

describe('photos and media', () => {
  const png = Buffer.from(TINY_PNG, 'base64');
  let carId: string;
  let sessionId: string;
  beforeAll(async () => {
    carId = await newCar();
    sessionId = (await dropOff(carId, { parkingZoneId: zoneId })).body.data.sessionId;
  });

  it('stores a base64 photo in the session, lists it in the gallery and serves its bytes to the team', async () => {
    const res = await api('POST', `/cars/${carId}/photos`, {
      body: { sessionId, filename: 'front.png', contentType: 'image/png', base64: TINY_PNG },
    });
    expect(res.status).toBe(201);
    const photo = res.body.data;
    expect(photo).toMatchObject({
      carId,
      sessionId,
      filename: 'front.png',
      contentType: 'image/png',
      sizeBytes: png.length,
      url: `/api/media/${photo.id}`,
    });
    expect((await api('GET', `/cars/${carId}/photos`)).body.data.map((p: { id: string }) => p.id)).toEqual([photo.id]);

    const key = (await server.createKey(teamId, ['read:cars'])).key;
    const media = await fetch(`${server.origin}${photo.url}`, { headers: { authorization: `Bearer ${key}` } });
    expect(media.status).toBe(200);
    expect(media.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await media.arrayBuffer())).toEqual(png);

    const other = await server.createTeamWithKey(ALL_SCOPES);
    const foreign = await fetch(`${server.origin}${photo.url}`, { headers: { authorization: `Bearer ${other.key}` } });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ code: 'not_found' });
    expect((await fetch(`${server.origin}${photo.url}`)).status).toBe(401);
  });

  it.each([
    [
      'a content type that does not match the bytes',
      { contentType: 'image/jpeg', base64: TINY_PNG },
      400,
      'contentType',
    ],
    [
      'bytes that are not an image',
      { contentType: 'image/png', base64: Buffer.from('%PDF-1.7 nope').toString('base64') },
      400,
      'contentType',
    ],
    ['a non-image content type', { contentType: 'application/pdf', base64: TINY_PNG }, 400, 'contentType'],
    [
      'both base64 and sourceUrl',
      { contentType: 'image/png', base64: TINY_PNG, sourceUrl: 'https://img.example/a.png' },
      400,
      'base64',
    ],
    ['neither base64 nor sourceUrl', { contentType: 'image/png' }, 400, 'base64'],
    ['an http sourceUrl', { contentType: 'image/png', sourceUrl: 'http://img.example/a.png' }, 400, 'sourceUrl'],
    [
      'a sourceUrl on a private address',
      { contentType: 'image/png', sourceUrl: 'https://10.0.0.1/a.png' },
      400,
      'sourceUrl',
    ],
  ])('refuses %s and stores nothing', async (_label, fields, status, path) => {
    const before = await snapshotTeamData(server.db, teamId);
    const res = await api('POST', `/cars/${carId}/photos`, { body: { sessionId, filename: 'x.png', ...fields } });
    expect(res.status).toBe(status);
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(await snapshotTeamData(server.db, teamId)).toEqual(before);
  });

  it('refuses a photo over 3 MiB with 413', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 1);
    png.copy(big);
    const res = await api('POST', `/cars/${carId}/photos`, {
      body: { sessionId, filename: 'big.png', contentType: 'image/png', base64: big.toString('base64') },
    });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('payload_too_large');
  });

  it('serves photos whose names are not ASCII', async () => {
    const res = await api('POST', `/cars/${carId}/photos`, {
      body: { sessionId, filename: 'Škoda "front" 🚗.png', contentType: 'image/png', base64: TINY_PNG },
    });
    expect(res.status).toBe(201);
    const media = await fetch(`${server.origin}${res.body.data.url}`, {
      headers: { authorization: `Bearer ${(await server.createKey(teamId, ['read:cars'])).key}` },
    });
    expect(media.status).toBe(200);
    expect(media.headers.get('content-disposition')).toContain(
      `filename*=UTF-8''${encodeURIComponent('Škoda "front" 🚗.png')}`,
    );
  });

  it("refuses another car's session", async () => {
    const otherCar = await newCar();
    const res = await api('POST', `/cars/${otherCar}/photos`, {
      body: { sessionId, filename: 'x.png', contentType: 'image/png', base64: TINY_PNG },
    });
    expect(res.status).toBe(400);
    expect(res.body.details[0].path).toBe('sessionId');
  });
});
