import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { ALL_SCOPES } from '@vsf/contract';
import { VsfClient } from '@vsf/sdk';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import { openSink, type Sink, type SyncResult, sdkPageSource, selectResources, sync } from '@vsf/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChaosProxy, seededRandom, startChaosProxy } from '../support/chaos-proxy.js';

// A fault-injecting proxy sits between the sync (through the SDK) and a real server: 5xx and 429 with
// Retry-After, connection resets before and during responses, delays and stalls, at random but seeded.
// Writers change records straight on the server the whole time. Full, then incremental syncs into SQLite
// and JSONL run until the writers stop; after one last incremental run, every row of every synced
// resource must equal the server's. VSF_STRESS=1 writes for longer; VSF_CHAOS_SEED repeats a run.
const STRESS = Boolean(process.env.VSF_STRESS);
const WRITE_MS = STRESS ? 30_000 : 4_000;
const WRITERS = STRESS ? 4 : 3;
const SEED_CARS = STRESS ? 1500 : 450;
const FAULT_RATE = 0.25;
const SEED = Number(process.env.VSF_CHAOS_SEED) || Math.floor(Math.random() * 2 ** 31);
const RESOURCES = ['cars', 'customers', 'contacts', 'locations', 'event_types'];

let server: TestServer;
let proxy: ChaosProxy;
let direct: VsfClient;
let chaotic: VsfClient;
let teamId: string;
const dir = mkdtempSync(join(tmpdir(), 'vsf-chaos-'));

beforeAll(async () => {
  server = await startTestServer();
  const { key, team } = await server.createTeamWithKey(ALL_SCOPES);
  teamId = team.id;
  direct = new VsfClient({ apiKey: key, baseUrl: server.baseUrl, logLevel: 'off' });
  proxy = await startChaosProxy({
    target: server.origin,
    seed: SEED,
    faultRate: FAULT_RATE,
    eligible: (method, path) => method === 'GET' && path.startsWith('/api/v1/'),
    weights: { stall: 1 },
  });
  // Retries generous enough that 25 % faults (each retry a fresh roll) practically never exhaust them;
  // a short timeout so stalled responses are given up on quickly.
  chaotic = new VsfClient({
    apiKey: key,
    baseUrl: `${proxy.origin}/api/v1`,
    maxRetries: 8,
    timeout: 1_500,
    logLevel: 'off',
  });
  await seed();
}, 120_000);

afterAll(async () => {
  await proxy?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Several pages of older records, straight into the database (the API would take long). */
async function seed() {
  const now = Date.now();
  const customers = Array.from({ length: 120 }, (_, i) => ({
    id: randomUUID(),
    team_id: teamId,
    first_name: `Seed${i}`,
    last_name: 'Customer',
    created_at: new Date(now - 3_600_000 - i * 1000),
    updated_at: new Date(now - 3_600_000 - i * 1000),
  }));
  await server.db('customers').insert(customers);
  const cars = Array.from({ length: SEED_CARS }, (_, i) => ({
    id: randomUUID(),
    team_id: teamId,
    customer_id: customers[i % customers.length]?.id,
    year: 1950 + (i % 70),
    make: 'Seed',
    model: `M${i}`,
    is_for_sale: i % 2 === 0,
    created_at: new Date(now - 3_600_000 - i * 1000),
    updated_at: new Date(now - 3_600_000 - i * 1000),
  }));
  for (let i = 0; i < cars.length; i += 500) await server.db('cars').insert(cars.slice(i, i + 500));
  await direct.locations.create({ name: 'Main lot' });
}

/** Creates, updates and soft-deletes records straight on the server until `until`. */
async function writer(id: number, until: number, random: () => number) {
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)] as T;
  // Each writer starts from its own share of the seeded records.
  const share = <T extends { id: string }>(rows: T[]) => rows.filter((_, i) => i % WRITERS === id).map((r) => r.id);
  const carIds = share((await direct.cars.list({ limit: 200 })).data);
  const customerIds = share((await direct.customers.list({ limit: 200 })).data);
  const locationIds = (await direct.locations.list({ limit: 10 })).data.map((l) => l.id);
  let writes = 0;
  for (let n = 0; Date.now() < until; n++) {
    const roll = random();
    if (roll < 0.25) {
      carIds.push((await direct.cars.create({ year: 2020, make: `W${id}`, model: `N${n}`, color: 'new' })).id);
    } else if (roll < 0.55) {
      await direct.cars.update(pick(carIds), { color: `c${id}-${n}`, mileage: n });
    } else if (roll < 0.7) {
      customerIds.push((await direct.customers.create({ firstName: `W${id}`, lastName: `N${n}` })).id);
    } else if (roll < 0.8) {
      await direct.customers.update(pick(customerIds), { city: `City ${n}` });
    } else if (roll < 0.85) {
      await direct.customers.delete(pick(customerIds));
    } else if (roll < 0.95) {
      await direct.contacts.create({ customerId: pick(customerIds), firstName: `K${id}`, lastName: `N${n}` });
    } else if (roll < 0.98) {
      await direct.locations.update(pick(locationIds), { city: `Town ${n}` });
    } else {
      locationIds.push((await direct.locations.create({ name: `Lot ${id}-${n}` })).id);
    }
    writes++;
  }
  return writes;
}

/** What the server holds, read around the proxy (customers with soft-deleted ones). */
async function serverRows(resource: string): Promise<Record<string, unknown>[]> {
  const lists: Record<string, () => AsyncIterable<unknown>> = {
    cars: () => direct.cars.listAll(),
    customers: () => direct.customers.listAll({ includeDeleted: true }),
    contacts: () => direct.contacts.listAll(),
    locations: () => direct.locations.listAll(),
    event_types: () => direct.eventTypes.listAll(),
  };
  const rows: Record<string, unknown>[] = [];
  for await (const row of (lists[resource] as () => AsyncIterable<Record<string, unknown>>)()) rows.push(row);
  return rows;
}

/** Row-by-row comparison of the mirror with the server: counts of missing, extra and different rows. */
async function compareMirror(sink: Sink) {
  const result = { rows: 0, missing: 0, extra: 0, different: 0, problems: [] as string[] };
  for (const spec of selectResources(RESOURCES)) {
    const expected = new Map((await serverRows(spec.name)).map((r) => [String(r.id), r]));
    const mirrored = new Map((await sink.readAll(spec)).map((r) => [String(r.id), r]));
    result.rows += expected.size;
    for (const [id, row] of expected) {
      const copy = mirrored.get(id);
      if (!copy) {
        result.missing++;
        result.problems.push(`${spec.name} ${id} missing`);
      } else if (!isDeepStrictEqual(copy, row)) {
        result.different++;
        result.problems.push(
          `${spec.name} ${id} differs: mirror ${JSON.stringify(copy)} server ${JSON.stringify(row)}`,
        );
      }
    }
    for (const id of mirrored.keys()) {
      if (!expected.has(id)) {
        result.extra++;
        result.problems.push(`${spec.name} ${id} extra`);
      }
    }
  }
  return result;
}

describe(`chaos sync (seed ${SEED})`, () => {
  it('mirrors into SQLite and JSONL through faults while writers change records; nothing lost', async () => {
    const sinks: Record<string, Sink> = {
      sqlite: openSink(`sqlite:${join(dir, 'mirror.db')}`),
      jsonl: openSink(`jsonl:${join(dir, 'mirror-jsonl')}`),
    };
    const runs: SyncResult[] = [];
    const failures: string[] = [];
    const syncOnce = async (sink: Sink) => {
      const result = await sync({ source: sdkPageSource(chaotic), sink, resources: RESOURCES });
      runs.push(result);
      for (const r of result.resources) if (r.status === 'failed') failures.push(`${r.resource}: ${r.error}`);
      return result;
    };
    try {
      const until = Date.now() + WRITE_MS;
      const random = seededRandom(SEED + 1);
      const writers = Array.from({ length: WRITERS }, (_, i) => writer(i, until, random));
      let writing = true;
      const allWritten = Promise.all(writers).finally(() => {
        writing = false;
      });
      const loops = Object.values(sinks).map(async (sink) => {
        do await syncOnce(sink);
        while (writing);
      });
      const [writes] = await Promise.all([allWritten, ...loops]);

      const finals = await Promise.all(Object.values(sinks).map(syncOnce));
      for (const final of finals) {
        expect(final.resources.every((r) => r.mode === 'incremental')).toBe(true);
      }
      expect(failures, 'sync runs that gave up despite retries').toEqual([]);

      let compared = 0;
      let losses = 0;
      const problems: string[] = [];
      for (const [name, sink] of Object.entries(sinks)) {
        const outcome = await compareMirror(sink);
        compared += outcome.rows;
        losses += outcome.missing + outcome.extra + outcome.different;
        problems.push(...outcome.problems.map((p) => `${name}: ${p}`));
      }
      const { stats } = proxy;
      const kinds = Object.entries(stats.byKind)
        .filter(([, n]) => n > 0)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ');
      console.log(
        `chaos-sync (${server.engine}, seed ${SEED}): ${stats.faults} faults injected (${kinds}) in ${stats.requests} requests; ` +
          `${writes.reduce((a, b) => a + b, 0)} writes by ${WRITERS} writers; ${runs.length} sync runs; ` +
          `${compared} rows compared; losses=${losses}`,
      );
      expect(problems.slice(0, 20)).toEqual([]);
      expect(losses).toBe(0);
      expect(stats.faults).toBeGreaterThan(0);
      expect(compared).toBeGreaterThan(SEED_CARS);
    } finally {
      for (const sink of Object.values(sinks)) await sink.close();
    }
  }, 180_000);

  it('creates and updates sent through the same faults are stored exactly once, with their last values', async () => {
    // Every method is faulted here; a response lost after the server committed (reset mid-body) makes
    // the SDK retry with the same Idempotency-Key, which must replay rather than create again.
    const writeProxy = await startChaosProxy({
      target: server.origin,
      seed: SEED + 2,
      faultRate: FAULT_RATE,
      eligible: (_method, path) => path.startsWith('/api/v1/'),
      // Mostly responses lost after the server committed: the case idempotency exists for.
      weights: { 'reset-mid-body': 6 },
    });
    const { key, team } = await server.createTeamWithKey(ALL_SCOPES);
    const through = new VsfClient({
      apiKey: key,
      baseUrl: `${writeProxy.origin}/api/v1`,
      maxRetries: 8,
      timeout: 5_000,
      logLevel: 'off',
    });
    const perWriter = STRESS ? 60 : 12;
    const acknowledged = new Map<string, { model: string; color: string }>();
    try {
      await Promise.all(
        Array.from({ length: WRITERS }, async (_, w) => {
          for (let i = 0; i < perWriter; i++) {
            const model = `W${w}-${i}`;
            const car = await through.cars.create({ year: 2021, make: 'Chaos', model });
            acknowledged.set(car.id, { model, color: car.color ?? '' });
            if (i % 2 === 0) {
              const updated = await through.cars.update(car.id, { color: `after-${i}` });
              acknowledged.set(car.id, { model, color: updated.color ?? '' });
            }
          }
        }),
      );
    } finally {
      await writeProxy.close();
    }
    const rows = (await server.db('cars').where({ team_id: team.id })) as {
      id: string;
      model: string;
      color: string | null;
    }[];
    const duplicates = rows.length - new Set(rows.map((r) => r.model)).size;
    const wrong = rows.filter((r) => {
      const ack = acknowledged.get(r.id);
      return !ack || ack.model !== r.model || ack.color !== (r.color ?? '');
    });
    const { stats } = writeProxy;
    console.log(
      `chaos-writes (${server.engine}, seed ${SEED + 2}): ${stats.faults} faults injected in ${stats.requests} requests; ` +
        `${acknowledged.size} creates acknowledged, ${rows.length} rows stored; duplicates=${duplicates}, losses=${acknowledged.size - rows.length + wrong.length}`,
    );
    expect(duplicates).toBe(0);
    expect(wrong).toEqual([]);
    expect(rows.length).toBe(WRITERS * perWriter);
    expect(stats.faults).toBeGreaterThan(0);
  }, 180_000);
});
