import { randomUUID } from 'node:crypto';
import { ALL_SCOPES } from '@vsf/contract';
import { describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/index.js';
import { type ApiCaller, apiCaller } from './support/api-caller.js';
import { teamServer } from './support/team-server.js';

let server: TestServer;
let api: ApiCaller;
let teamId: string;
let key: string;

const countCars = async (make: string) =>
  Number((await server.db('cars').where({ team_id: teamId, make }).count({ n: '*' }).first())?.n);

teamServer((team) => {
  ({ server, teamId, key, api } = team);
});

describe('Idempotency-Key on POST', () => {
  it('replays the first response for the same key and body, creating one record', async () => {
    const headers = { 'idempotency-key': randomUUID() };
    const body = { year: 1990, make: 'Replay', model: 'One' };
    const first = await api('POST', '/cars', { body, headers });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // Same content, other key order: still the same request.
    const second = await api('POST', '/cars', { body: { model: 'One', make: 'Replay', year: 1990 }, headers });
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('location')).toBe(first.headers.get('location'));
    expect(await countCars('Replay')).toBe(1);
  });

  it('replays the first response byte for byte, keys in the order they were sent', async () => {
    const headers = {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    };
    const send = () =>
      fetch(`${server.baseUrl}/cars`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ year: 1990, make: 'Bytes', model: 'Same' }),
      });
    const first = await send();
    const second = await send();
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await second.text()).toBe(await first.text());
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
  });

  it('answers the same key with another body with 409 and stores nothing', async () => {
    const headers = { 'idempotency-key': randomUUID() };
    await api('POST', '/cars', { body: { year: 1990, make: 'Reuse', model: 'A' }, headers });
    const res = await api('POST', '/cars', { body: { year: 1990, make: 'Reuse', model: 'B' }, headers });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'conflict', details: { reason: 'idempotency_key_reused' } });
    expect(await countCars('Reuse')).toBe(1);
  });

  it('does not keep failed requests: a retry after a validation error runs afresh', async () => {
    const headers = { 'idempotency-key': randomUUID() };
    const bad = await api('POST', '/cars', {
      body: { year: 1990, make: 'Retry', model: 'A', customerId: randomUUID() },
      headers,
    });
    expect(bad.status).toBe(400);
    const fixed = await api('POST', '/cars', { body: { year: 1990, make: 'Retry', model: 'A' }, headers });
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('scopes keys per API key: another key may reuse the same Idempotency-Key', async () => {
    const other = await server.createKey(teamId, ALL_SCOPES);
    const headers = { 'idempotency-key': `shared-${randomUUID()}` };
    const body = { year: 1990, make: 'PerKey', model: 'A' };
    await api('POST', '/cars', { body, headers });
    const res = await apiCaller(server.baseUrl, other.key)('POST', '/cars', { body, headers });
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    expect(await countCars('PerKey')).toBe(2);
  });

  it('rejects a malformed key', async () => {
    const res = await api('POST', '/cars', {
      body: { year: 1990, make: 'X', model: 'Y' },
      headers: { 'idempotency-key': 'has space' },
    });
    expect(res.status).toBe(400);
    expect(res.body.details[0].path).toBe('Idempotency-Key');
  });

  it('runs concurrent identical requests once, across server instances sharing the database', async () => {
    const second = server.engine === 'postgres' ? await startTestServer() : undefined;
    try {
      const bases = [server.baseUrl, second?.baseUrl ?? server.baseUrl];
      for (let round = 0; round < 5; round++) {
        const headers = { 'idempotency-key': randomUUID() };
        const make = `Concurrent${round}`;
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            apiCaller(bases[i % 2] as string, key)('POST', '/cars', {
              body: { year: 1990, make, model: 'Z' },
              headers,
            }),
          ),
        );
        for (const r of results) {
          expect([201, 409]).toContain(r.status);
          if (r.status === 409) expect(r.body.details.reason).toBe('idempotency_in_flight');
        }
        const ids = new Set(results.filter((r) => r.status === 201).map((r) => r.body.data.id));
        expect(ids.size).toBe(1);
        expect(await countCars(make)).toBe(1);
      }
    } finally {
      await second?.close();
    }
  });

  it('keys records by the matched route: every spelling Express routes to POST /locations is one key', async () => {
    const idempotencyKey = randomUUID();
    const name = `Route ${idempotencyKey}`;
    const post = (path: string) =>
      apiCaller(server.origin, key)('POST', path, { body: { name }, headers: { 'idempotency-key': idempotencyKey } });
    const responses = [];
    for (const path of ['/api/v1/locations', '/api/v1/LOCATIONS/', '/API/V1/Locations'])
      responses.push(await post(path));
    expect(responses.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(responses.map((r) => r.headers.get('idempotent-replayed'))).toEqual([null, 'true', 'true']);
    expect(new Set(responses.map((r) => r.body.data.id)).size).toBe(1);
    expect(Number((await server.db('locations').where({ team_id: teamId, name }).count({ n: '*' }).first())?.n)).toBe(
      1,
    );
    const records = await server.db('idempotency_keys').where({ idempotency_key: idempotencyKey });
    expect(records.map((r) => [r.method, r.path])).toEqual([['POST', '/api/v1/locations']]);
  });

  it('keys a route with an id by the route and the id, whatever the case of either', async () => {
    const car = await api('POST', '/cars', { body: { year: 1990, make: 'RouteId', model: 'A' } });
    const zone = await api('POST', '/parking-zones', { body: { name: `Zone ${randomUUID()}` } });
    const carId = car.body.data.id as string;
    const idempotencyKey = randomUUID();
    const body = { activityType: 'drop_off', parkingZoneId: zone.body.data.id };
    const post = (path: string) =>
      apiCaller(server.origin, key)('POST', path, { body, headers: { 'idempotency-key': idempotencyKey } });
    const first = await post(`/api/v1/cars/${carId}/events`);
    const again = await post(`/API/v1/Cars/${carId.toUpperCase()}/EVENTS/`);
    expect(first.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const records = await server.db('idempotency_keys').where({ idempotency_key: idempotencyKey });
    expect(records.map((r) => r.path)).toEqual([`/api/v1/cars/${carId}/events`]);
  });
});
