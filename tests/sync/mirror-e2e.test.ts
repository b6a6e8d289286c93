import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_SCOPES } from '@vsf/contract';
import { VsfClient } from '@vsf/sdk';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import {
  openSink,
  type PageSource,
  type ResourceSpec,
  type Sink,
  SyncLockedError,
  sdkPageSource,
  selectResources,
  sync,
  verify,
} from '@vsf/sync';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { postgresMirrorSchemas } from '../support/postgres-mirror-schemas.js';

let server: TestServer;
let client: VsfClient;
const dir = mkdtempSync(join(tmpdir(), 'vsf-sync-'));
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeAll(async () => {
  server = await startTestServer();
  const { key } = await server.createTeamWithKey(ALL_SCOPES);
  client = new VsfClient({ apiKey: key, baseUrl: server.baseUrl, logLevel: 'off' });
});

const RESOURCES = ['cars', 'customers', 'contacts', 'locations', 'event_types'];
const byId = (a: Record<string, unknown>, b: Record<string, unknown>) => String(a.id).localeCompare(String(b.id));

/** What the server holds, read straight through the API (customers with soft-deleted ones). */
async function serverState(resource: string) {
  const all: Record<string, unknown>[] = [];
  const lists: Record<string, () => AsyncIterable<unknown>> = {
    cars: () => client.cars.listAll(),
    customers: () => client.customers.listAll({ includeDeleted: true }),
    contacts: () => client.contacts.listAll(),
    locations: () => client.locations.listAll(),
    event_types: () => client.eventTypes.listAll(),
  };
  for await (const r of (lists[resource] as () => AsyncIterable<Record<string, unknown>>)()) all.push(r);
  return all.sort(byId);
}

async function expectMirrorEqualsServer(sink: Sink) {
  let compared = 0;
  for (const spec of selectResources(RESOURCES)) {
    const mirror = await sink.readAll(spec as ResourceSpec);
    const expected = await serverState(spec.name);
    expect(mirror, spec.name).toEqual(expected);
    compared += expected.length;
  }
  return compared;
}

async function seed(n: number) {
  const location = await client.locations.create({ name: `Loc ${Math.random()}` });
  for (let i = 0; i < n; i++) {
    const customer = await client.customers.create({ firstName: `C${i}`, lastName: 'Seed', locationId: location.id });
    await client.cars.create({
      year: 1950 + (i % 70),
      make: 'Seed',
      model: `M${i}`,
      customerId: customer.id,
      declaredValueCents: 1000 * i,
    });
    if (i % 3 === 0) {
      await client.contacts.create({
        customerId: customer.id,
        firstName: 'K',
        lastName: `${i}`,
        communicationPreferences: {
          invoices: true,
          estimates: false,
          scheduling: true,
          carUpdates: true,
          contracts: false,
          socialEvents: false,
          marketing: i % 2 === 0,
        },
      });
    }
  }
}

const PG = process.env.TEST_DATABASE_URL;
/** A PostgreSQL sink URL in a schema of its own: the test database also holds the server's tables. */
const postgresSinkUrl = postgresMirrorSchemas('vsf_sync_test');

// One conformance suite for every sink; PostgreSQL joins when TEST_DATABASE_URL is set.
describe.each(['sqlite', 'jsonl', ...(PG ? ['postgres'] : [])])(
  'mirror into %s against the reference server',
  (kind) => {
    let pgUrl = '';
    beforeEach(async () => {
      if (kind === 'postgres') pgUrl = await postgresSinkUrl();
    });
    const url = () => {
      if (kind === 'sqlite') return `sqlite:${join(dir, `${kind}-${Math.random()}.db`)}`;
      if (kind === 'jsonl') return `jsonl:${join(dir, `jsonl-${Math.random()}`)}`;
      return pgUrl;
    };

    it('full sync, then changes and soft deletes, then incremental: the mirror equals the server', async () => {
      await seed(12);
      const sink = openSink(url());
      try {
        // The spec's rule, by lists with a lookback, as against a spec-only server (the events feed's own
        // suite is feed-sync.test.ts).
        const first = await sync({ source: sdkPageSource(client), sink, resources: RESOURCES, useFeed: false });
        expect(first.ok).toBe(true);
        expect(first.resources.every((r) => r.mode === 'full' && r.status === 'completed')).toBe(true);
        await expectMirrorEqualsServer(sink);

        const cars = await client.cars.list({ limit: 3 });
        for (const car of cars.data) await client.cars.update(car.id, { color: 'teal', mileage: 42 });
        const customers = await client.customers.list({ limit: 2 });
        await client.customers.delete(customers.data[0]!.id);
        await client.cars.create({ year: 2024, make: 'New', model: 'Arrival' });

        const second = await sync({ source: sdkPageSource(client), sink, resources: RESOURCES, useFeed: false });
        const carsSummary = second.resources.find((r) => r.resource === 'cars')!;
        expect(carsSummary.mode).toBe('incremental');
        // The query goes back the lookback (60 s) from the previous run's server start time.
        const watermark = first.resources.find((r) => r.resource === 'cars')?.watermark as string;
        expect(Date.parse(watermark) - Date.parse(carsSummary.updatedAfter as string)).toBe(60_000);
        const compared = await expectMirrorEqualsServer(sink);
        expect(compared).toBeGreaterThan(20);
        // verify's digests agree with the row-by-row comparison for every kind of column (JSON included).
        const verified = await verify({ source: sdkPageSource(client), sink, resources: RESOURCES });
        expect(verified.resources.filter((r) => r.status !== 'ok')).toEqual([]);
        expect(verified.resources.reduce((n, r) => n + r.serverCount, 0)).toBe(compared);
        const mirroredCustomers = await sink.readAll(selectResources(['customers'])[0]!);
        expect(mirroredCustomers.find((c) => c.id === customers.data[0]!.id)?.deletedAt).not.toBeNull();
      } finally {
        await sink.close();
      }
    });

    it('resumes a run killed after some pages, with its original start time, and loses nothing', async () => {
      for (let i = 0; i < 450; i += 50) {
        await Promise.all(
          Array.from({ length: 50 }, (_, j) => client.cars.create({ year: 2000, make: 'Bulk', model: `B${i + j}` })),
        );
      }
      const sink = openSink(url());
      try {
        // The process dies once page 1 is written: page 2 (fetched while page 1 is written) never arrives.
        const real = sdkPageSource(client);
        const dying: PageSource = {
          fetchPage: async (resource, request) => {
            if (request.page > 1) throw new Error('killed');
            return real.fetchPage(resource, request);
          },
        };
        const crashed = await sync({ source: dying, sink, resources: ['cars'] });
        expect(crashed.ok).toBe(false);
        expect(crashed.resources[0]?.error).toBe('killed');
        const state = await sink.getState(selectResources(['cars'])[0]!);
        expect(state.watermark).toBeNull();
        expect(state.checkpoint?.nextPage).toBe(2);
        // While the process is down, a car on the page already written changes: the resumed run
        // must still bring it in (its catch-up reads from the original start, not the resume time).
        const [firstRow] = await sink.readAll(selectResources(['cars'])[0]!);
        await client.cars.update(String(firstRow!.id), { model: 'changed while down' });
        const resumed = await sync({ source: sdkPageSource(client), sink, resources: ['cars'] });
        expect(resumed.resources[0]).toMatchObject({ status: 'completed', resumed: true, mode: 'full' });
        // The catch-up ends at its own start, which is never before the crashed run's start.
        expect(Date.parse(resumed.resources[0]!.watermark!)).toBeGreaterThanOrEqual(
          Date.parse(state.checkpoint!.startedAt),
        );
        expect(await sink.readAll(selectResources(['cars'])[0]!)).toEqual(await serverState('cars'));
      } finally {
        await sink.close();
      }
    });

    it('catches records written while a full sync pages, on the next incremental run', async () => {
      const sink = openSink(url());
      try {
        const writer = (async () => {
          for (let i = 0; i < 15; i++) {
            const car = await client.cars.create({ year: 2010, make: 'During', model: `D${i}` });
            await client.cars.update(car.id, { color: 'late' });
          }
        })();
        await sync({ source: sdkPageSource(client), sink, resources: ['cars'] });
        await writer;
        const next = await sync({ source: sdkPageSource(client), sink, resources: ['cars'] });
        expect(next.resources[0]?.mode).toBe('incremental');
        const mirror = await sink.readAll(selectResources(['cars'])[0]!);
        expect(mirror).toEqual(await serverState('cars'));
      } finally {
        await sink.close();
      }
    });

    it('lets only one run hold the mirror at a time', async () => {
      const target = url();
      const a = openSink(target);
      const b = openSink(target);
      try {
        await a.prepare(selectResources(['cars']));
        await a.lock('first');
        await expect(sync({ source: sdkPageSource(client), sink: b, resources: ['cars'] })).rejects.toBeInstanceOf(
          SyncLockedError,
        );
        await a.unlock();
        expect((await sync({ source: sdkPageSource(client), sink: b, resources: ['cars'] })).ok).toBe(true);
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('prunes hard-deleted rows on a full sync when asked, and a dry run writes nothing', async () => {
      const sink = openSink(url());
      try {
        const contact = await client.contacts.create({
          customerId: (await client.customers.create({ firstName: 'P', lastName: 'Q' })).id,
          firstName: 'Gone',
          lastName: 'Soon',
        });
        await sync({ source: sdkPageSource(client), sink, resources: ['contacts'] });
        await client.contacts.delete(contact.id);
        const dry = await sync({ source: sdkPageSource(client), sink, resources: ['contacts'], dryRun: true });
        expect(dry.resources[0]).toMatchObject({ status: 'dry-run', mode: 'incremental' });
        const pruned = await sync({
          source: sdkPageSource(client),
          sink,
          resources: ['contacts'],
          mode: 'full',
          prune: true,
        });
        expect(pruned.resources[0]?.deleted).toBe(1);
        const mirror = await sink.readAll(selectResources(['contacts'])[0]!);
        expect(mirror.map((c) => c.id)).not.toContain(contact.id);
        expect(mirror).toEqual(await serverState('contacts'));
      } finally {
        await sink.close();
      }
    });
  },
);
