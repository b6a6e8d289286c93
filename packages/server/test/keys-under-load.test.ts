import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { ALL_SCOPES } from '@vsf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/index.js';
import { apiCaller } from './support/api-caller.js';

// While many clients hammer the API with one key, the admin revokes it (or turns the team's API off, or
// expires the key). Every request that started after the admin call returned is refused, with the same
// answer a single request gets (auth.test.ts); requests in flight during the call end either way but never
// 5xx; a refused write stores nothing, and every acknowledged one is stored. VSF_STRESS=1 runs more
// clients and rounds.
const STRESS = Boolean(process.env.VSF_STRESS);
const CLIENTS = STRESS ? 24 : 12;
const ROUNDS = STRESS ? 5 : 1;
// Phases are counted in finished requests, not time, so a slow machine only makes the test slower.
const BEFORE_REQUESTS = STRESS ? 5 * CLIENTS : 3 * CLIENTS;
const AFTER_REQUESTS = STRESS ? 5 * CLIENTS : 3 * CLIENTS;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

interface Sample {
  started: number;
  finished: number;
  status: number;
  error: string | undefined;
  method: string;
  /** Client-chosen model of a created car, to find it in the database. */
  marker?: string;
  createdId?: string;
}

/** `CLIENTS` loops of mixed reads and writes with `key` until `stop()` is called. */
function hammer(key: string, carIds: string[]) {
  const api = apiCaller(server.baseUrl, key);
  const samples: Sample[] = [];
  let running = true;
  const loop = async (client: number) => {
    for (let n = 0; running; n++) {
      const started = performance.now();
      const kind = n % 4;
      const sample: Partial<Sample> = { started };
      let res: { status: number; body: unknown };
      if (kind === 0) {
        sample.method = 'GET';
        res = await api('GET', '/cars', { query: { limit: '20' } });
      } else if (kind === 1) {
        sample.method = 'GET';
        res = await api('GET', `/cars/${carIds[(client + n) % carIds.length]}`);
      } else if (kind === 2) {
        sample.method = 'POST';
        sample.marker = `load-${randomUUID()}`;
        res = await api('POST', '/cars', {
          body: { year: 2001, make: 'Hammer', model: sample.marker },
          headers: { 'idempotency-key': randomUUID() },
        });
      } else {
        sample.method = 'PATCH';
        res = await api('PATCH', `/cars/${carIds[(client + n) % carIds.length]}`, { body: { mileage: n } });
      }
      const body = res.body as { error?: string; data?: { id?: string } } | undefined;
      samples.push({
        ...(sample as Sample),
        finished: performance.now(),
        status: res.status,
        error: body?.error,
        ...(res.status === 201 && body?.data?.id ? { createdId: body.data.id } : {}),
      });
    }
  };
  const done = Promise.all(Array.from({ length: CLIENTS }, (_, i) => loop(i)));
  return {
    samples,
    async stop() {
      running = false;
      await done;
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(condition: () => boolean) {
  while (!condition()) await sleep(5);
}

interface Outcome {
  requests: number;
  before: number;
  overlapping: number;
  after: number;
  violations: string[];
}

/**
 * Hammers with a fresh key, runs `cut` (the admin call) mid-way, and checks every request against the
 * moment the call returned: later ones get `expected`; none gets a 5xx; writes match the database.
 */
async function cutUnderLoad(
  cut: (ids: { teamId: string; keyId: string }) => Promise<Response>,
  expected: { status: number; error: string },
): Promise<Outcome & { key: string; teamId: string }> {
  const { team, key, keyId } = await server.createTeamWithKey(ALL_SCOPES);
  const api = apiCaller(server.baseUrl, key);
  const carIds: string[] = [];
  for (let i = 0; i < 8; i++) {
    carIds.push((await api('POST', '/cars', { body: { year: 2000, make: 'Base', model: `B${i}` } })).body.data.id);
  }
  const load = hammer(key, carIds);
  await until(() => load.samples.length >= BEFORE_REQUESTS);
  const cutStarted = performance.now();
  const response = await cut({ teamId: team.id, keyId });
  const cutReturned = performance.now();
  expect(response.status, await response.text()).toBe(200);
  await until(() => load.samples.filter((x) => x.started > cutReturned).length >= AFTER_REQUESTS);
  await load.stop();

  const violations: string[] = [];
  const outcome: Outcome = { requests: load.samples.length, before: 0, overlapping: 0, after: 0, violations };
  for (const s of load.samples) {
    if (s.status >= 500) violations.push(`${s.method} answered ${s.status}`);
    if (s.started > cutReturned) {
      outcome.after++;
      if (s.status !== expected.status || s.error !== expected.error) {
        violations.push(
          `${s.method} started ${(s.started - cutReturned).toFixed(1)} ms after the cut → ${s.status} ${s.error}`,
        );
      }
    } else if (s.finished < cutStarted) {
      outcome.before++;
      if (s.status >= 300) violations.push(`${s.method} before the cut → ${s.status} ${s.error}`);
    } else {
      outcome.overlapping++;
      const ok = s.status < 300 || (s.status === expected.status && s.error === expected.error);
      if (!ok) violations.push(`${s.method} during the cut → ${s.status} ${s.error}`);
    }
  }

  // Writes: every acknowledged create is stored, and no refused one is.
  const stored = new Set(
    ((await server.db('cars').where({ team_id: team.id, make: 'Hammer' }).select('model')) as { model: string }[]).map(
      (r) => r.model,
    ),
  );
  for (const s of load.samples.filter((x) => x.marker)) {
    const acknowledged = s.status === 201;
    if (acknowledged !== stored.has(s.marker as string)) {
      violations.push(`POST ${s.status} but ${stored.has(s.marker as string) ? 'stored' : 'not stored'}`);
    }
  }
  return { ...outcome, key, teamId: team.id };
}

const summary = (name: string, outcomes: Outcome[]) => {
  const sum = (k: 'requests' | 'before' | 'overlapping' | 'after') => outcomes.reduce((a, o) => a + o[k], 0);
  const violations = outcomes.flatMap((o) => o.violations);
  console.log(
    `keys-under-load ${name} (${server.engine}): ${outcomes.length} cut(s) under ${CLIENTS} clients; ${sum('requests')} requests ` +
      `(${sum('before')} before, ${sum('overlapping')} in flight, ${sum('after')} after); violations=${violations.length}`,
  );
  expect(violations.slice(0, 20)).toEqual([]);
};

describe('revocation and API-off under concurrent load', () => {
  it('a revoked key is refused for every request started after the revoke returned', async () => {
    const outcomes: Outcome[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      outcomes.push(
        await cutUnderLoad(({ keyId }) => server.admin('POST', `/keys/${keyId}/revoke`), {
          status: 401,
          error: 'API key revoked',
        }),
      );
    }
    summary('revoke', outcomes);
  }, 120_000);

  it("turning the team's API off refuses every later request, and turning it on lets the key back in", async () => {
    const outcomes: Outcome[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const outcome = await cutUnderLoad(
        ({ teamId }) => server.admin('PATCH', `/teams/${teamId}`, { apiEnabled: false }),
        { status: 403, error: 'API is disabled for this team' },
      );
      outcomes.push(outcome);
      expect((await server.admin('PATCH', `/teams/${outcome.teamId}`, { apiEnabled: true })).status).toBe(200);
      expect((await apiCaller(server.baseUrl, outcome.key)('GET', '/cars')).status).toBe(200);
    }
    summary('api-off', outcomes);
  }, 120_000);

  it('a key expired by the admin is refused for every request started after the change returned', async () => {
    const outcomes: Outcome[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      outcomes.push(
        await cutUnderLoad(
          ({ keyId }) => server.admin('PATCH', `/keys/${keyId}`, { expiresAt: new Date(Date.now() - 1).toISOString() }),
          { status: 401, error: 'API key expired' },
        ),
      );
    }
    summary('expiry', outcomes);
  }, 120_000);

  it('an idempotent replay of a write acknowledged before the revoke is refused after it, not replayed', async () => {
    const { key, keyId } = await server.createTeamWithKey(ALL_SCOPES);
    const api = apiCaller(server.baseUrl, key);
    const request = { body: { year: 2002, make: 'Replay', model: 'R' }, headers: { 'idempotency-key': randomUUID() } };
    expect((await api('POST', '/cars', request)).status).toBe(201);
    expect((await api('POST', '/cars', request)).headers.get('idempotent-replayed')).toBe('true');
    expect((await server.admin('POST', `/keys/${keyId}/revoke`)).status).toBe(200);
    const replay = await api('POST', '/cars', request);
    expect(replay.status).toBe(401);
    expect(replay.body).toMatchObject({ error: 'API key revoked' });
  });
});
