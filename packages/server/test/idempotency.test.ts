import { randomUUID } from 'node:crypto';
import { ALL_SCOPES } from '@vsf/contract';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
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

// A plain create claims its key in the message of its insert on PostgreSQL (idempotent-execution.ts): a
// claim that replays, refuses or meets an expired entry must come out exactly as when it went first.
describe('a create whose key is claimed with its insert', () => {
  /** The texts pg's client sends while `work` runs (none on PGlite, whose queries are calls). */
  async function messagesDuring<T>(work: () => Promise<T>): Promise<{ result: T; messages: string[] }> {
    const sent = vi.spyOn(pg.Client.prototype, 'query');
    try {
      const result = await work();
      const messages = sent.mock.calls.map(([query]) =>
        typeof query === 'string' ? query : (query as { text: string }).text,
      );
      return { result, messages };
    } finally {
      sent.mockRestore();
    }
  }
  const ridden = (messages: string[]) =>
    messages.some((text) =>
      /^begin;\s+select vsf_claim_idempotency_key\(.*\) as claim;\s+insert into "cars"/s.test(text),
    );

  it('sends the claim with the insert, and a replay rolls its own insert back', async () => {
    const headers = { 'idempotency-key': randomUUID() };
    const make = `Ridden ${headers['idempotency-key']}`;
    const first = await messagesDuring(() => api('POST', '/cars', { body: { year: 2001, make, model: 'R' }, headers }));
    expect(first.result.status).toBe(201);
    const again = await messagesDuring(() => api('POST', '/cars', { body: { year: 2001, make, model: 'R' }, headers }));
    expect(again.result.status).toBe(201);
    expect(again.result.headers.get('idempotent-replayed')).toBe('true');
    expect(again.result.body).toEqual(first.result.body);
    expect(await countCars(make)).toBe(1);
    if (server.engine === 'postgres') {
      expect(ridden(first.messages)).toBe(true);
      expect(ridden(again.messages)).toBe(true);
    }
  });

  it('refuses the key sent with another body, storing nothing of the second', async () => {
    const headers = { 'idempotency-key': randomUUID() };
    const make = `Reused ${headers['idempotency-key']}`;
    expect((await api('POST', '/cars', { body: { year: 2001, make, model: 'A' }, headers })).status).toBe(201);
    const reused = await api('POST', '/cars', { body: { year: 2001, make, model: 'B' }, headers });
    expect(reused.status).toBe(409);
    expect(reused.body.details.reason).toBe('idempotency_key_reused');
    expect(await countCars(make)).toBe(1);
  });

  it('runs afresh once the stored response has expired, and keeps one entry for the key', async () => {
    const headers = { 'idempotency-key': randomUUID() };
    const make = `Expired ${headers['idempotency-key']}`;
    const first = await api('POST', '/cars', { body: { year: 2001, make, model: 'E' }, headers });
    await server
      .db('idempotency_keys')
      .where({ idempotency_key: headers['idempotency-key'] })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const again = await api('POST', '/cars', { body: { year: 2001, make, model: 'E' }, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.data.id).not.toBe(first.body.data.id);
    expect(await countCars(make)).toBe(2);
    const entries = await server.db('idempotency_keys').where({ idempotency_key: headers['idempotency-key'] });
    expect(entries).toHaveLength(1);
    const replay = await api('POST', '/cars', { body: { year: 2001, make, model: 'E' }, headers });
    expect(replay.body).toEqual(again.body);
  });

  it("replays a create whose retried insert meets its own unique value, and answers another key's conflict", async () => {
    const { key: writer } = await server.createTeamWithKey(['read:appointments', 'write:appointments']);
    const call = apiCaller(server.baseUrl, writer);
    const value = `unique_${randomUUID().replaceAll('-', '_')}`;
    const body = { value, name: 'Unique', scope: 'facility' };
    const created = { 'idempotency-key': randomUUID() };
    const first = await call('POST', '/event-types', { body, headers: created });
    expect(first.status).toBe(201);
    // The retry's own insert meets the unique value its first attempt wrote: the claim's replay still wins.
    const retried = await call('POST', '/event-types', { body, headers: created });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body).toEqual(first.body);
    const headers = { 'idempotency-key': randomUUID() };
    for (let attempt = 0; attempt < 2; attempt++) {
      const duplicate = await call('POST', '/event-types', { body, headers });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.error).toBe(`The team already has an event type "${value}"`);
    }
    expect(await server.db('idempotency_keys').where({ idempotency_key: headers['idempotency-key'] })).toHaveLength(0);
  });
});
