import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { ALL_SCOPES } from '@vsf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type S3TestServer, startS3TestServer } from '../src/testing/s3-test-server.js';
import { apiCaller } from './support/api-caller.js';
import { type ServerProcess, startServerProcess } from './support/server-process.js';

// The deployment the README describes: three `vsf-server` processes sharing one PostgreSQL, one Redis (rate
// limits) and one S3-compatible store (photo bytes). Clients spread a mixed load over the instances as a
// round-robin balancer would, retrying a request whose connection fails on the next instance with the same
// Idempotency-Key. One instance is killed (SIGKILL) mid-run. Then: every acknowledged create exists exactly
// once with its last acknowledged update, every acknowledged photo's bytes come back from the survivors,
// nothing answered 5xx, and a key's rate limit held across the three instances together.
// Several processes need a shared database, so this suite runs on PostgreSQL only.
const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const STRESS = Boolean(process.env.VSF_STRESS);
const WORKERS = STRESS ? 9 : 6;
const OPS_PER_WORKER = STRESS ? 60 : 20;
const RATE_LIMIT = 300;
const BUCKET = 'vsf-media';
const adminToken = `three-instances-admin-${randomUUID()}`;

interface Attempt {
  status: number;
  body: unknown;
}

/** Image bytes the server accepts (PNG magic, then noise), big enough that S3 really stores something. */
function photo(): Buffer {
  const bytes = randomBytes(24 * 1024);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 0);
  return bytes;
}
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe.skipIf(!databaseUrl)('three vsf-server processes on one PostgreSQL, Redis and S3', () => {
  let s3: S3TestServer;
  const instances: ServerProcess[] = [];
  /** Instances a client still sends to; a connection failure takes one out, as a balancer's health check would. */
  const alive = new Set<number>();
  let next = 0;
  const statuses: number[] = [];
  const connectionFailures: Record<number, number> = {};
  /** Set once a third of the load is done: the next photo upload sent to instance 2 is cut by killing it. */
  let killArmed = false;
  let killed: Promise<{ signal: NodeJS.Signals | null }> | undefined;
  function killDuring<T>(request: Promise<T>): Promise<T> {
    killArmed = false;
    // A millisecond in: the 32 KB body is arriving, and the write may or may not commit.
    killed = new Promise((resolve) => setTimeout(resolve, 1)).then(() =>
      (instances[2] as ServerProcess).stop('SIGKILL').then((exit) => {
        alive.delete(2);
        return exit;
      }),
    );
    return request;
  }

  beforeAll(async () => {
    s3 = await startS3TestServer([BUCKET]);
    const env = {
      DATABASE_URL: databaseUrl as string,
      REDIS_URL: redisUrl,
      VSF_RATE_LIMIT: String(RATE_LIMIT),
      VSF_RATE_LIMIT_WINDOW: '300',
      VSF_ADMIN_TOKEN: adminToken,
      VSF_DEMO: '0',
      VSF_S3_BUCKET: BUCKET,
      VSF_S3_ENDPOINT: s3.endpoint,
      VSF_S3_PREFIX: `three-instances-${randomUUID()}/`,
      AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
    };
    // Started together, as a deployment rolls out: the migrations must serialise among them.
    instances.push(...(await Promise.all([0, 1, 2].map(() => startServerProcess(env)))));
    for (const i of [0, 1, 2]) alive.add(i);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await s3?.close();
  });

  /**
   * One request through the "balancer": the next live instance; on a connection failure (the instance
   * died, before or during the request) the same request, with the same headers, goes to the next one.
   */
  async function send(
    key: string,
    method: string,
    path: string,
    options: { body?: unknown; idempotencyKey?: string; raw?: boolean } = {},
  ): Promise<Attempt & { bytes?: Uint8Array }> {
    for (let tries = 0; tries < 20; tries++) {
      const live = [...alive];
      if (live.length === 0) throw new Error('every instance is down');
      const index = live[next++ % live.length] as number;
      const instance = instances[index] as ServerProcess;
      try {
        const pending = fetch(`${instance.url}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${key}`,
            ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
          },
          ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        });
        const res = await (killArmed && index === 2 && path.endsWith('/photos') && method === 'POST'
          ? killDuring(pending)
          : pending);
        statuses.push(res.status);
        // The first request of an idempotent retry may still hold its lock for a moment: try again.
        if (res.status === 409 && options.idempotencyKey) {
          const body = (await res.json()) as { error?: string };
          if (/in flight|in progress/i.test(body.error ?? '')) {
            await new Promise((resolve) => setTimeout(resolve, 50));
            continue;
          }
          return { status: res.status, body };
        }
        if (options.raw) return { status: res.status, body: undefined, bytes: new Uint8Array(await res.arrayBuffer()) };
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : undefined };
      } catch (error) {
        if (!(error instanceof TypeError)) throw error;
        // fetch failed: connection refused or reset. The balancer stops sending there and retries elsewhere.
        connectionFailures[index] = (connectionFailures[index] ?? 0) + 1;
        if (instance.child.exitCode !== null || instance.child.signalCode !== null) alive.delete(index);
        else await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    throw new Error(`${method} ${path}: no instance answered after 20 tries`);
  }

  async function newKey(teamId: string): Promise<string> {
    const admin = apiCaller(`${instances[0]?.url}/admin/v1`, adminToken);
    const created = await admin('POST', `/teams/${teamId}/keys`, { body: { name: randomUUID(), scopes: ALL_SCOPES } });
    expect(created.status).toBe(201);
    return created.body.data.key;
  }

  it('holds one key’s rate limit across the instances together', async () => {
    const admin = apiCaller(`${instances[0]?.url}/admin/v1`, adminToken);
    const team = await admin('POST', '/teams', { body: { name: 'Three instances, rate limit' } });
    const key = await newKey(team.body.data.id);
    const counts: Record<number, number> = {};
    // 1.5× the limit, 10 at a time, spread over the three instances (before the kill below).
    const requests = Math.round(RATE_LIMIT * 1.5);
    for (let sent = 0; sent < requests; sent += 10) {
      const batch = await Promise.all(Array.from({ length: 10 }, () => send(key, 'GET', '/api/v1/cars?limit=1')));
      for (const { status } of batch) counts[status] = (counts[status] ?? 0) + 1;
    }
    expect(counts).toEqual({ 200: RATE_LIMIT, 429: requests - RATE_LIMIT });
  }, 120_000);

  it('loses nothing acknowledged and duplicates nothing when one instance is killed mid-run', async () => {
    const admin = apiCaller(`${instances[1]?.url}/admin/v1`, adminToken);
    const team = await admin('POST', '/teams', { body: { name: 'Three instances' } });
    const teamId = team.body.data.id as string;

    interface Acknowledged {
      model: string;
      carId: string;
      mileage?: number;
      photos: { id: string; url: string; sha: string }[];
    }
    const acknowledged: Acknowledged[] = [];
    const target = WORKERS * OPS_PER_WORKER;
    let done = 0;

    const worker = async (w: number) => {
      // A key per worker keeps the load under the per-key rate limit the last test checks.
      const key = await newKey(teamId);
      for (let i = 0; i < OPS_PER_WORKER; i++) {
        const model = `w${w}-op${i}`;
        const created = await send(key, 'POST', '/api/v1/cars', {
          body: { year: 2010, make: 'Multi', model },
          idempotencyKey: randomUUID(),
        });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        const record: Acknowledged = { model, carId: (created.body as { data: { id: string } }).data.id, photos: [] };
        acknowledged.push(record);

        const mileage = w * 100_000 + i;
        const updated = await send(key, 'PATCH', `/api/v1/cars/${record.carId}`, { body: { mileage } });
        expect(updated.status).toBe(200);
        record.mileage = mileage;

        if (i % 4 === 0) {
          const event = await send(key, 'POST', `/api/v1/cars/${record.carId}/events`, {
            body: { activityType: 'inspection' },
            idempotencyKey: randomUUID(),
          });
          expect(event.status, JSON.stringify(event.body)).toBe(201);
          const sessionId = (event.body as { data: { sessionId: string } }).data.sessionId;
          const bytes = photo();
          const uploaded = await send(key, 'POST', `/api/v1/cars/${record.carId}/photos`, {
            body: { sessionId, filename: `${model}.png`, contentType: 'image/png', base64: bytes.toString('base64') },
            idempotencyKey: randomUUID(),
          });
          expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
          const data = (uploaded.body as { data: { id: string; url: string } }).data;
          record.photos.push({ id: data.id, url: data.url, sha: sha(bytes) });
        }

        done++;
        if (!killed && done >= target / 3) killArmed = true;
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));

    expect(killed, 'no write reached instance 2 after the kill was armed').toBeDefined();
    expect((await killed)?.signal).toBe('SIGKILL');
    expect(statuses.filter((status) => status >= 500)).toEqual([]);

    // Read everything back through the survivors.
    const reader = await newKey(teamId);
    const cars: { id: string; model: string; mileage: number | null }[] = [];
    for (let page = 1; ; page++) {
      const res = await send(reader, 'GET', `/api/v1/cars?limit=200&page=${page}`);
      const body = res.body as { data: typeof cars; total: number };
      cars.push(...body.data);
      if (cars.length >= body.total || body.data.length === 0) break;
    }
    const byModel = new Map<string, typeof cars>();
    for (const car of cars) byModel.set(car.model, [...(byModel.get(car.model) ?? []), car]);
    expect(acknowledged).toHaveLength(target);
    for (const record of acknowledged) {
      const stored = byModel.get(record.model) ?? [];
      expect(
        stored.map((car) => car.id),
        record.model,
      ).toEqual([record.carId]);
      expect(stored[0]?.mileage, record.model).toBe(record.mileage);
    }
    expect(cars).toHaveLength(target);

    const photos = acknowledged.flatMap((record) => record.photos.map((p) => ({ ...p, carId: record.carId })));
    expect(photos.length).toBeGreaterThan(0);
    for (const p of photos) {
      const listed = await send(reader, 'GET', `/api/v1/cars/${p.carId}/photos`);
      expect((listed.body as { data: { id: string }[] }).data.map((x) => x.id)).toEqual([p.id]);
      const media = await send(reader, 'GET', p.url, { raw: true });
      expect(media.status).toBe(200);
      expect(sha(media.bytes as Uint8Array)).toBe(p.sha);
    }
    console.log(
      `three-instances: ${statuses.length} responses from 3 instances (one SIGKILLed after ${Math.round(target / 3)} of ${target} operations); ${acknowledged.length} cars and ${photos.length} photos acknowledged, all stored once; ${connectionFailures[2] ?? 0} requests failed over from the killed instance; 5xx=0`,
    );
  }, 240_000);
});
