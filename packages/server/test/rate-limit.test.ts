import { randomBytes, randomUUID } from 'node:crypto';
import { apiEndpoints, type EndpointDefinition, serverPath } from '@vsf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RateLimitConfig } from '../src/rate-limit/key-rate-limiter.js';
import { startTestServer, type TestServer } from '../src/testing/index.js';
import { type ApiResponse, apiCaller } from './support/api-caller.js';

/** A client address of its own for each test (behind the trusted loopback proxy), so runs never share counts. */
const newClientAddress = () => `2001:db8::${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;

function expectRateLimited(res: ApiResponse | Response, limit: number) {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(res.headers.get('ratelimit-limit')).toBe(String(limit));
  expect(res.headers.get('ratelimit-remaining')).toBe('0');
  expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
  if ('body' in res && !(res.body instanceof ReadableStream)) {
    expect(res.body).toMatchObject({ code: 'rate_limited', error: expect.stringMatching(/retry after \d+ s/) });
  }
}

// The in-process store, and on PostgreSQL also the shared store (rate-limiter-flexible's SQL needs a real server).
const stores: RateLimitConfig['store'][] = process.env.TEST_DATABASE_URL ? ['memory', 'postgres'] : ['memory'];

describe.each(stores)('rate limits with the %s store', (store) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      rateLimit: { points: 3, failedAuthPoints: 4, windowSeconds: 60, store },
      trustProxy: 'loopback',
    });
  });
  afterAll(() => server?.close());

  it('sends RateLimit-* headers and answers 429 rate_limited with Retry-After once a key is over its limit', async () => {
    const { key, team } = await server.createTeamWithKey(['read:cars']);
    const api = apiCaller(server.baseUrl, key);
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api('GET', '/cars');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('3');
      remaining.push(res.headers.get('ratelimit-remaining') ?? '');
    }
    expect(remaining).toEqual(['2', '1', '0']);
    expectRateLimited(await api('GET', '/cars'), 3);

    // Another key of the same team has its own budget.
    const other = await server.createKey(team.id, ['read:cars']);
    expect((await apiCaller(server.baseUrl, other.key)('GET', '/cars')).status).toBe(200);
  });

  it('counts requests refused for scope against the key', async () => {
    const { key } = await server.createTeamWithKey(['read:cars']);
    const api = apiCaller(server.baseUrl, key);
    for (let i = 0; i < 3; i++) {
      const res = await api('GET', '/customers');
      expect(res.status).toBe(403);
      expect(res.headers.get('ratelimit-remaining')).toBe(String(2 - i));
    }
    expectRateLimited(await api('GET', '/cars'), 3);
    // Over the limit, a write is refused before its body is looked at: nothing is stored.
    const write = await api('POST', '/cars', { body: { year: 1990, make: 'OverLimit', model: 'A' } });
    expectRateLimited(write, 3);
    expect(await server.db('cars').where({ make: 'OverLimit' }).first()).toBeUndefined();
  });

  it('limits /api/media per key like the API, whatever the media answer', async () => {
    const { key } = await server.createTeamWithKey(['read:cars']);
    const media = () =>
      fetch(`${server.origin}/api/media/${randomUUID()}`, { headers: { authorization: `Bearer ${key}` } });
    for (let i = 0; i < 3; i++) {
      const res = await media();
      expect(res.status).toBe(404);
      expect(res.headers.get('ratelimit-remaining')).toBe(String(2 - i));
    }
    const limited = await media();
    expectRateLimited(limited, 3);
    expect(await limited.json()).toMatchObject({ code: 'rate_limited' });
  });

  it('limits failed authentication per client address: missing, malformed, unknown, wrong and revoked keys', async () => {
    const { key, keyId } = await server.createTeamWithKey(['read:cars']);
    const revoked = await server.createTeamWithKey(['read:cars']);
    await server.admin('POST', `/keys/${revoked.keyId}/revoke`);
    const address = newClientAddress();
    const from = (apiKey?: string) => apiCaller(server.baseUrl, apiKey);
    const xff = { 'x-forwarded-for': address };
    const attempts = [
      from()('GET', '/cars', { headers: xff }),
      from('not-a-key')('GET', '/cars', { headers: xff }),
      from(`vsf_${'0'.repeat(12)}.${'A'.repeat(43)}`)('GET', '/cars', { headers: xff }),
      from(`${key.slice(0, -2)}xx`)('GET', '/cars', { headers: xff }),
    ];
    const statuses = [];
    for (const attempt of attempts) {
      const res = await attempt;
      statuses.push(res.status);
      expect(res.headers.get('ratelimit-limit')).toBe('4');
    }
    expect(statuses).toEqual([401, 401, 401, 401]);
    expectRateLimited(await from(revoked.key)('GET', '/cars', { headers: xff }), 4);
    expectRateLimited(await from()('GET', '/cars/whatever', { headers: xff }), 4);
    expectRateLimited(
      await fetch(`${server.origin}/api/media/${randomUUID()}`, { headers: { ...xff, 'x-api-key': 'nope' } }),
      4,
    );

    // Another client address still gets its 401. While this address is over its failure limit, even the
    // right key is answered 429 before it is checked (no oracle for guessing); from elsewhere it works,
    // and the failures counted nothing against it.
    expect((await from('nope')('GET', '/cars', { headers: { 'x-forwarded-for': newClientAddress() } })).status).toBe(
      401,
    );
    expectRateLimited(await from(key)('GET', '/cars', { headers: xff }), 4);
    const ok = await from(key)('GET', '/cars', { headers: { 'x-forwarded-for': newClientAddress() } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('ratelimit-remaining')).toBe('2');
    expect(keyId).toBeTruthy();
  });

  it('limits wrong admin tokens per client address; over the limit even the right token is refused', async () => {
    const address = newClientAddress();
    const admin = (token: string | undefined) =>
      fetch(`${server.adminBaseUrl}/teams`, {
        headers: { 'x-forwarded-for': address, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      });
    const statuses = [];
    for (const token of [undefined, 'wrong-token-0123456789', `${server.adminToken}x`, 'x'])
      statuses.push((await admin(token)).status);
    expect(statuses).toEqual([401, 401, 401, 401]);
    const limited = await admin('another-wrong-token');
    expectRateLimited(limited, 4);
    expect(await limited.json()).toMatchObject({ code: 'rate_limited' });
    // Before: the right token answered 200 while wrong ones got 429, so guessing went on at full speed.
    expectRateLimited(await admin(server.adminToken), 4);
    const elsewhere = await fetch(`${server.adminBaseUrl}/teams`, {
      headers: { 'x-forwarded-for': newClientAddress(), authorization: `Bearer ${server.adminToken}` },
    });
    expect(elsewhere.status).toBe(200);
  });
});

// Generated from the contract: a new endpoint is limited, and counts failures, without a line here.
describe('every endpoint of the contract, and /api/media', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      rateLimit: { points: 1, failedAuthPoints: 1, windowSeconds: 60 },
      trustProxy: true,
    });
  });
  afterAll(() => server?.close());

  const routes = [
    ...Object.entries(apiEndpoints).map(([operationId, e]) => ({
      operationId,
      method: e.method.toUpperCase(),
      path: serverPath(e as EndpointDefinition).replace(/\{\w+\}/g, () => randomUUID()),
      hasBody: Boolean((e as EndpointDefinition).body),
    })),
  ];
  const send = (route: (typeof routes)[number], headers: Record<string, string>) =>
    fetch(`${server.origin}${route.path}`, {
      method: route.method,
      headers: { ...headers, ...(route.hasBody ? { 'content-type': 'application/json' } : {}) },
      ...(route.hasBody ? { body: '{}' } : {}),
    });

  it('answers a key over its limit with 429 before scopes, ids or body are looked at', async () => {
    // One scope: 403 on most endpoints, 404/400 on the rest, were the limit not checked first.
    const { key } = await server.createTeamWithKey(['read:cars']);
    expect((await apiCaller(server.baseUrl, key)('GET', '/customers')).status).toBe(403);
    for (const route of routes) {
      const res = await send(route, { authorization: `Bearer ${key}` });
      expect(res.status, route.operationId).toBe(429);
      expect(res.headers.get('retry-after'), route.operationId).toBeTruthy();
    }
  });

  it('counts a failed authentication on each against the client address', async () => {
    for (const route of routes) {
      const headers = { 'x-forwarded-for': newClientAddress(), authorization: 'Bearer nope' };
      expect((await send(route, headers)).status, route.operationId).toBe(401);
      const limited = await send(route, headers);
      expect(limited.status, route.operationId).toBe(429);
      expect(limited.headers.get('ratelimit-limit'), route.operationId).toBe('1');
    }
  });
});

describe('forwarding headers without VSF_TRUST_PROXY', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ rateLimit: { points: 100, failedAuthPoints: 3, windowSeconds: 60 } });
  });
  afterAll(() => server?.close());

  it('are ignored: a client cannot escape its failure limit by inventing X-Forwarded-For addresses', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const res = await apiCaller(server.baseUrl, 'nope')('GET', '/cars', {
        headers: { 'x-forwarded-for': newClientAddress(), forwarded: `for="[${newClientAddress()}]"` },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('rate limit shared through PostgreSQL', () => {
  it('counts one key, and one address failing authentication, across two server instances', async () => {
    const options = {
      rateLimit: { points: 4, failedAuthPoints: 4, windowSeconds: 60, store: 'postgres' as const },
      trustProxy: 'loopback',
    };
    const a = await startTestServer(options);
    const b = await startTestServer(options);
    try {
      const { key } = await a.createTeamWithKey(['read:cars']);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++)
        statuses.push((await apiCaller(i % 2 ? b.baseUrl : a.baseUrl, key)('GET', '/cars')).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);

      const address = newClientAddress();
      const failures: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await apiCaller(i % 2 ? b.baseUrl : a.baseUrl, 'nope')('GET', '/cars', {
          headers: { 'x-forwarded-for': address },
        });
        failures.push(res.status);
      }
      expect(failures).toEqual([401, 401, 401, 401, 429, 429]);
      // Counters skip the WAL (migration 020): a logged table made every request wait for a disk flush.
      const { rows } = await a.db.raw("select relpersistence from pg_class where relname = 'rate_limits'");
      expect(rows).toEqual([{ relpersistence: 'u' }]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
