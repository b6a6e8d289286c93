import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { ALL_SCOPES } from '@vsf/contract';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../src/testing/index.js';
import { apiCaller } from './support/api-caller.js';
import { twoInstances } from './support/two-instances.js';

// Two server instances on one PostgreSQL and one Redis, each with its own verified-key cache. While clients
// hammer one key on both, the admin revokes it / expires it / turns the team's API off through instance A.
// The guarantee: every request to A started after the admin call returned is refused; every request to B
// started more than one second after it is refused (B hears the change through LISTEN/NOTIFY); nothing
// answers 5xx. Two instances need a shared database, so this suite runs on PostgreSQL only.
const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const STRESS = Boolean(process.env.VSF_STRESS);
const CLIENTS_PER_INSTANCE = STRESS ? 12 : 4;
const PROPAGATION_MS = 1_000;
// After the deadline on B, this many requests per instance must have started before the cut is judged.
const AFTER_REQUESTS = STRESS ? 10 * CLIENTS_PER_INSTANCE : 3 * CLIENTS_PER_INSTANCE;

function countStatuses(responses: { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of responses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(condition: () => boolean) {
  while (!condition()) await sleep(5);
}

describe.skipIf(!databaseUrl)('two instances on one PostgreSQL', () => {
  let a: TestServer;
  let b: TestServer;
  const rateLimit = { store: 'redis' as const, redisUrl, redisKeyPrefix: `vsf-test-${randomUUID()}` };
  twoInstances(
    () => ({ databaseUrl, rateLimit }),
    (first, second) => {
      [a, b] = [first, second];
    },
  );

  interface Sample {
    instance: 'A' | 'B';
    started: number;
    status: number;
    error: string | undefined;
  }

  function hammer(key: string, carId: string) {
    const samples: Sample[] = [];
    let running = true;
    const loop = async (instance: 'A' | 'B', server: TestServer) => {
      const api = apiCaller(server.baseUrl, key);
      while (running) {
        const started = performance.now();
        const res = await api('GET', `/cars/${carId}`);
        samples.push({ instance, started, status: res.status, error: (res.body as { error?: string })?.error });
      }
    };
    const loops = [];
    for (let i = 0; i < CLIENTS_PER_INSTANCE; i++) loops.push(loop('A', a), loop('B', b));
    const done = Promise.all(loops);
    return {
      samples,
      async stop() {
        running = false;
        await done;
      },
    };
  }

  async function cutThroughA(
    cut: (ids: { teamId: string; keyId: string }) => Promise<Response>,
    expected: { status: number; error: string },
    name: string,
  ) {
    const { team, key, keyId } = await a.createTeamWithKey(ALL_SCOPES);
    const car = await apiCaller(a.baseUrl, key)('POST', '/cars', { body: { year: 2000, make: 'Two', model: 'I' } });
    const load = hammer(key, car.body.data.id);
    // Both instances have served (and cached) the key before the cut.
    await until(() =>
      ['A', 'B'].every((i) => load.samples.filter((s) => s.instance === i && s.status === 200).length >= 5),
    );
    const cutStarted = performance.now();
    const response = await cut({ teamId: team.id, keyId });
    const cutReturned = performance.now();
    expect(response.status, await response.text()).toBe(200);
    const deadline = cutReturned + PROPAGATION_MS;
    await until(
      () =>
        load.samples.filter((s) => s.instance === 'A' && s.started > deadline).length >= AFTER_REQUESTS &&
        load.samples.filter((s) => s.instance === 'B' && s.started > deadline).length >= AFTER_REQUESTS,
    );
    await load.stop();

    const refused = (s: Sample) => s.status === expected.status && s.error === expected.error;
    const violations: string[] = [];
    let lastAcceptedOnB = Number.NEGATIVE_INFINITY;
    for (const s of load.samples) {
      if (s.status >= 500) violations.push(`${s.instance} answered ${s.status}`);
      if (s.instance === 'B' && s.status === 200) lastAcceptedOnB = Math.max(lastAcceptedOnB, s.started);
      if (s.started <= cutReturned) continue;
      const late = (s.started - cutReturned).toFixed(1);
      if (s.instance === 'A' && !refused(s)) violations.push(`A, ${late} ms after the cut → ${s.status} ${s.error}`);
      if (s.instance === 'B') {
        if (s.started > deadline && !refused(s)) violations.push(`B, ${late} ms after the cut → ${s.status}`);
      }
    }
    // Negative: B's last accepted request started before the admin call returned (the NOTIFY is sent at
    // commit, before A answers, so B usually hears it first).
    console.log(
      `keys-across-instances ${name}: ${load.samples.length} requests on 2 instances; admin call took ` +
        `${(cutReturned - cutStarted).toFixed(1)} ms; B's last accepted request started ` +
        `${(lastAcceptedOnB - cutReturned).toFixed(1)} ms after it returned (limit ${PROPAGATION_MS} ms); ` +
        `violations=${violations.length}`,
    );
    expect(violations.slice(0, 20)).toEqual([]);
    return { teamId: team.id, key };
  }

  it('a key revoked through instance A is refused at once on A and within a second on B', async () => {
    await cutThroughA(
      ({ keyId }) => a.admin('POST', `/keys/${keyId}/revoke`),
      { status: 401, error: 'API key revoked' },
      'revoke',
    );
  }, 60_000);

  it('a key expired through instance A is refused at once on A and within a second on B', async () => {
    await cutThroughA(
      ({ keyId }) => a.admin('PATCH', `/keys/${keyId}`, { expiresAt: new Date(Date.now() - 1).toISOString() }),
      { status: 401, error: 'API key expired' },
      'expiry',
    );
  }, 60_000);

  it("turning the team's API off through A refuses it on both, and turning it on lets the key back in on both", async () => {
    const { teamId, key } = await cutThroughA(
      ({ teamId }) => a.admin('PATCH', `/teams/${teamId}`, { apiEnabled: false }),
      { status: 403, error: 'API is disabled for this team' },
      'api-off',
    );
    expect((await a.admin('PATCH', `/teams/${teamId}`, { apiEnabled: true })).status).toBe(200);
    expect((await apiCaller(a.baseUrl, key)('GET', '/cars')).status).toBe(200);
    const started = Date.now();
    while ((await apiCaller(b.baseUrl, key)('GET', '/cars')).status !== 200) {
      expect(Date.now() - started).toBeLessThan(PROPAGATION_MS + 500);
      await sleep(20);
    }
  }, 60_000);

  it('B answers from its cache until the notification arrives (the cache is in use, and NOTIFY is what ends it)', async () => {
    const { key, keyId } = await a.createTeamWithKey(ALL_SCOPES);
    const onB = apiCaller(b.baseUrl, key);
    expect((await onB('GET', '/cars')).status).toBe(200);
    // The first use writes last_used_at, which notifies no instance (migration 033): the entry stays.
    await sleep(200);
    expect((await onB('GET', '/cars')).status).toBe(200);
    // Revoke with the trigger off for this one transaction: no notification is sent.
    const [{ prefix }] = await a.db.transaction(async (trx) => {
      await trx.raw('alter table api_keys disable trigger vsf_api_keys_notify');
      const rows = await trx('api_keys').where({ id: keyId }).update({ revoked_at: new Date() }).returning('prefix');
      await trx.raw('alter table api_keys enable trigger vsf_api_keys_notify');
      return rows;
    });
    expect((await onB('GET', '/cars')).status).toBe(200);
    await a.db.raw('select pg_notify(?, ?)', ['vsf_key_changes', `key:${prefix}`]);
    await sleep(200);
    expect((await onB('GET', '/cars')).body).toMatchObject({ error: 'API key revoked' });
  });

  it("a key's last use written alone notifies no instance; any other change of the key does", async () => {
    const { keyId } = await a.createTeamWithKey(ALL_SCOPES);
    const [{ prefix }] = await a.db('api_keys').where({ id: keyId }).select('prefix');
    const listener = new pg.Client({ connectionString: databaseUrl });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (message) => heard.push(message.payload ?? ''));
    try {
      await listener.query('listen vsf_key_changes');
      await a.db('api_keys').where({ id: keyId }).update({ last_used_at: new Date() });
      // A notification sent at a commit is delivered before one sent at a later commit: this one marks the end.
      await a.db.raw('select pg_notify(?, ?)', ['vsf_key_changes', 'marker:1']);
      await until(() => heard.includes('marker:1'));
      expect(heard.filter((payload) => payload === `key:${prefix}`)).toEqual([]);
      for (const change of [{ name: 'renamed' }, { last_used_at: new Date(), scopes: JSON.stringify(['read:cars']) }]) {
        heard.length = 0;
        await a.db('api_keys').where({ id: keyId }).update(change);
        await until(() => heard.includes(`key:${prefix}`));
      }
    } finally {
      await listener.end();
    }
  });

  it('a change made in SQL, outside any instance, reaches both caches within a second', async () => {
    const { key, keyId } = await a.createTeamWithKey(ALL_SCOPES);
    for (const server of [a, b]) expect((await apiCaller(server.baseUrl, key)('GET', '/cars')).status).toBe(200);
    await a.db('api_keys').where({ id: keyId }).update({ revoked_at: new Date() });
    await sleep(PROPAGATION_MS);
    for (const server of [a, b]) {
      expect((await apiCaller(server.baseUrl, key)('GET', '/cars')).body).toMatchObject({ error: 'API key revoked' });
    }
  });
});

describe.skipIf(!databaseUrl)('rate limits shared across two instances through Redis', () => {
  const LIMIT = 20;
  let a: TestServer;
  let b: TestServer;
  const rateLimit = {
    store: 'redis' as const,
    redisUrl,
    redisKeyPrefix: `vsf-test-${randomUUID()}`,
    points: LIMIT,
    failedAuthPoints: LIMIT,
    windowSeconds: 60,
  };
  twoInstances(
    () => ({ databaseUrl, rateLimit }),
    (first, second) => {
      [a, b] = [first, second];
    },
  );

  it('N concurrent requests of one key split across both instances never admit more than the limit', async () => {
    const { key } = await a.createTeamWithKey(ALL_SCOPES);
    const statuses = await Promise.all(
      Array.from({ length: 3 * LIMIT }, (_, i) => apiCaller((i % 2 ? a : b).baseUrl, key)('GET', '/cars')),
    );
    const counts = countStatuses(statuses);
    expect(counts).toEqual({ 200: LIMIT, 429: 2 * LIMIT });
  });

  it('failed authentications from one address are counted across both instances', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 3 * LIMIT }, (_, i) => apiCaller((i % 2 ? a : b).baseUrl, 'vsf_bogus_key')('GET', '/cars')),
    );
    const counts = countStatuses(statuses);
    expect(counts).toEqual({ 401: LIMIT, 429: 2 * LIMIT });
  });
});
