import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/index.js';
import { apiCaller } from './support/api-caller.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimit: { points: 3, windowSeconds: 60 } });
});
afterAll(() => server?.close());

describe('per-key rate limit', () => {
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
    const limited = await api('GET', '/cars');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'rate_limited' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    // Another key of the same team has its own budget.
    const other = await server.createKey(team.id, ['read:cars']);
    expect((await apiCaller(server.baseUrl, other.key)('GET', '/cars')).status).toBe(200);
  });

  it('does not count requests that fail authentication against anyone', async () => {
    const { key } = await server.createTeamWithKey(['read:cars']);
    for (let i = 0; i < 5; i++) await apiCaller(server.baseUrl, `${key}x`)('GET', '/cars');
    expect((await apiCaller(server.baseUrl, key)('GET', '/cars')).status).toBe(200);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('rate limit shared through PostgreSQL', () => {
  it('counts one key across two server instances', async () => {
    const a = await startTestServer({ rateLimit: { points: 4, windowSeconds: 60, store: 'postgres' } });
    const b = await startTestServer({ rateLimit: { points: 4, windowSeconds: 60, store: 'postgres' } });
    try {
      const { key } = await a.createTeamWithKey(['read:cars']);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++)
        statuses.push((await apiCaller(i % 2 ? b.baseUrl : a.baseUrl, key)('GET', '/cars')).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
      // Counters skip the WAL (migration 020): a logged table made every request wait for a disk flush.
      const { rows } = await a.db.raw("select relpersistence from pg_class where relname = 'rate_limits'");
      expect(rows).toEqual([{ relpersistence: 'u' }]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
