import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEALTH_RETRY_AFTER_SECONDS } from '../src/http/health-routes.js';
import { startTestServer, type TestServer } from '../src/testing/start-test-server.js';
import { apiCaller } from './support/api-caller.js';

// What a load balancer reads: /healthz says whether this instance can serve the API (its database answers),
// /livez only that the process does. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

/** Every new database connection of the server fails as a refused TCP connect would, until `restore()`. */
function cutDatabase(db: TestServer['db']) {
  const client = db.client as { acquireConnection: () => Promise<unknown> };
  const acquire = client.acquireConnection;
  client.acquireConnection = () =>
    Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
  return {
    restore: () => {
      client.acquireConnection = acquire;
    },
  };
}

describe('health', () => {
  it('answers 200 on /healthz and /livez while the database answers', async () => {
    for (const path of ['/healthz', '/livez']) {
      const res = await fetch(`${server.origin}${path}`);
      expect(res.status, path).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok' });
    }
  });

  it('answers 503 with Retry-After on /healthz when the database cannot be reached, while /livez stays 200', async () => {
    const { key } = await server.createTeamWithKey(['read:cars']);
    const api = apiCaller(server.baseUrl, key);
    // Past the one-second reuse of the last good ping.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const cut = cutDatabase(server.db);
    try {
      expect((await api('GET', '/cars')).status).toBe(500);
      const health = await fetch(`${server.origin}/healthz`);
      expect(health.status).toBe(503);
      expect(health.headers.get('retry-after')).toBe(String(HEALTH_RETRY_AFTER_SECONDS));
      expect(health.headers.get('cache-control')).toBe('no-store');
      expect(await health.json()).toMatchObject({ status: 'unavailable', error: expect.stringContaining('database') });
      const live = await fetch(`${server.origin}/livez`);
      expect(live.status).toBe(200);
    } finally {
      cut.restore();
    }
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
    expect((await api('GET', '/cars')).status).toBe(200);
  });
});
