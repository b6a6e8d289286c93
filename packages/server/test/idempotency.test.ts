import { randomUUID } from 'node:crypto';
import { ALL_SCOPES } from '@vsf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/index.js';
import { type ApiCaller, apiCaller } from './support/api-caller.js';

let server: TestServer;
let api: ApiCaller;
let teamId: string;
let key: string;

const countCars = async (make: string) =>
  Number((await server.db('cars').where({ team_id: teamId, make }).count({ n: '*' }).first())?.n);

beforeAll(async () => {
  server = await startTestServer();
  const created = await server.createTeamWithKey(ALL_SCOPES);
  teamId = created.team.id;
  key = created.key;
  api = apiCaller(server.baseUrl, key);
});
afterAll(() => server?.close());

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
});
