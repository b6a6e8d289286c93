import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import knex from 'knex';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SpecOnlyServer } from '../test/support/spec-only-server.js';
import { sync } from './engine.js';
import { type ResourceSpec, selectResources } from './resources.js';
import { openSink } from './sinks/open-sink.js';
import type { Checkpoint, Sink } from './sinks/sink.js';
import type { PageSource } from './source.js';

const locations = selectResources(['locations'])[0] as ResourceSpec;
const newSink = () => openSink(`sqlite:${join(mkdtempSync(join(tmpdir(), 'vsf-engine-')), 'm.db')}`);
const sorted = (rs: Record<string, unknown>[]) => [...rs].sort((a, b) => String(a.id).localeCompare(String(b.id)));

/** A server holding `count` locations, `id-0000` up. */
function serverWith(count: number): SpecOnlyServer {
  const server = new SpecOnlyServer();
  for (let i = 0; i < count; i++) server.put(`id-${String(i).padStart(4, '0')}`);
  return server;
}

/**
 * A run over 650 locations that fails at page `failPage`, and `resume`: the next run, with the page back.
 */
async function interruptedRun(failPage: number, pageDelayMs = 0) {
  const server = serverWith(650);
  let failing: number | undefined = failPage;
  const source: PageSource = {
    async fetchPage(resource, request) {
      if (pageDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, pageDelayMs));
      if (request.page === failing) throw new Error(`page ${request.page} is unavailable`);
      return server.fetchPage(resource, request);
    },
  };
  const sink = newSink();
  const failed = await sync({ source, sink, resources: ['locations'] });
  const resume = () => {
    failing = undefined;
    return sync({ source, sink, resources: ['locations'] });
  };
  return { server, sink, failed, resume };
}

/** The mirror holds exactly the server's locations. */
async function expectMirrorOf(server: SpecOnlyServer, sink: Sink): Promise<void> {
  expect(await sink.readAll(locations)).toEqual(sorted([...server.records.values()]));
}

afterEach(() => vi.useRealTimers());

describe('sync engine against a spec-only server', () => {
  it.each([
    ['hours ahead', 5 * 3600_000],
    ['hours behind', -5 * 3600_000],
  ])('misses nothing when the client clock is %s of the server', async (_label, skew) => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + skew });
    const server = serverWith(450);
    const sink = newSink();
    await sync({ source: server, sink, resources: ['locations'] });
    server.put('id-0007', { name: 'changed' });
    server.put('id-9999');
    const second = await sync({ source: server, sink, resources: ['locations'] });
    expect(second.resources[0]?.mode).toBe('incremental');
    await expectMirrorOf(server, sink);
    await sink.close();
  });

  it('redoes a run whose total shrank (a hard delete) instead of advancing the watermark', async () => {
    const server = serverWith(450);
    let deleted = false;
    server.beforePage = (request) => {
      if (request.page === 2 && !deleted) {
        deleted = true;
        // Deleting a record already read shifts one unread record into page 1.
        server.records.delete([...server.records.keys()].at(-1) as string);
      }
    };
    const sink = newSink();
    const result = await sync({ source: server, sink, resources: ['locations'], prune: true });
    expect(result.resources[0]).toMatchObject({ status: 'completed', total: 449 });
    await expectMirrorOf(server, sink);
    await sink.close();
  });

  it.each([
    [1, ['fetch 1', 'fetch 2', 'apply 1', 'fetch 3', 'apply 2', 'fetch 4', 'apply 3', 'apply 4']],
    [2, ['fetch 1', 'fetch 2', 'fetch 3', 'apply 1', 'fetch 4', 'apply 2', 'apply 3', 'apply 4']],
  ])(
    'with %i page request(s) in flight, fetches ahead while writing, still applying pages in order',
    async (pagesInFlight, expected) => {
      const server = serverWith(650);
      const events: string[] = [];
      const source: PageSource = {
        async fetchPage(resource, request) {
          events.push(`fetch ${request.page}`);
          return server.fetchPage(resource, request);
        },
      };
      const sink = newSink();
      const applyPage = sink.applyPage.bind(sink);
      sink.applyPage = async (resource, records, checkpoint) => {
        const result = await applyPage(resource, records, checkpoint);
        events.push(`apply ${checkpoint.nextPage - 1}`);
        return result;
      };
      const result = await sync({ source, sink, resources: ['locations'], pagesInFlight });
      expect(result.resources[0]).toMatchObject({ status: 'completed', pages: 4, upserted: 650 });
      expect(events).toEqual(expected);
      await expectMirrorOf(server, sink);
      await sink.close();
    },
  );

  it('resumes at the page after the last one written when a prefetched page fails', async () => {
    const { server, sink, failed, resume } = await interruptedRun(3);
    expect(failed.resources[0]).toMatchObject({ status: 'failed', error: 'page 3 is unavailable', pages: 2 });
    expect((await sink.getState(locations)).checkpoint).toMatchObject({ nextPage: 3 });
    const resumed = await resume();
    // Pages 3 and 4 of the interrupted run, then one page of catch-up since its start.
    expect(resumed.resources[0]).toMatchObject({ status: 'completed', resumed: true, pages: 3 });
    await expectMirrorOf(server, sink);
    await sink.close();
  });

  it('reports how long a resumed run took, its catch-up included (not 0 ms)', async () => {
    const { sink, resume } = await interruptedRun(2, 25);
    const resumed = await resume();
    // At least the resumed pages and the catch-up's, 25 ms each.
    expect(resumed.resources[0]?.durationMs).toBeGreaterThanOrEqual(50);
    await sink.close();
  });

  it('catches up after a resumed run on what changed while it was interrupted', async () => {
    const { server, sink, failed, resume } = await interruptedRun(2);
    expect(failed.resources[0]?.status).toBe('failed');
    // The oldest record (last page) changes while the run is down: it moves to page 1, which the
    // resumed run has already read.
    server.tick(5 * 60_000);
    server.put('id-0000', { name: 'moved to page 1' });
    const resumed = await resume();
    expect(resumed.resources[0]).toMatchObject({ status: 'completed', resumed: true });
    const mirrored = await sink.readAll(locations);
    expect(mirrored.find((r) => r.id === 'id-0000')?.name).toBe('moved to page 1');
    expect(mirrored).toEqual(sorted([...server.records.values()]));
    await sink.close();
  });

  it('applies a record only when it is not older than the stored one', async () => {
    const server = new SpecOnlyServer();
    server.put('a', { name: 'new' });
    const sink = newSink();
    await sync({ source: server, sink, resources: ['locations'] });
    const stale = { ...server.records.get('a'), name: 'old', updatedAt: '2000-01-01T00:00:00.000Z' };
    const { runId } = { runId: 'manual' };
    await sink.applyPage(locations, [stale], {
      runId,
      mode: 'full',
      startedAt: new Date().toISOString(),
      nextPage: 2,
      updatedAfter: null,
      firstTotal: 1,
    });
    expect((await sink.readAll(locations))[0]?.name).toBe('new');
    await sink.close();
  });
});

describe('resources', () => {
  it('lists every syncable list of the contract, with SQL kinds from the schemas (generated)', () => {
    const names = selectResources(undefined).map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(['cars', 'contacts', 'customers', 'event_types', 'locations']));
    const cars = selectResources(['cars'])[0] as ResourceSpec;
    const kind = (field: string) => cars.columns.find((c) => c.field === field)?.kind;
    expect([kind('year'), kind('isForSale'), kind('createdAt'), kind('make'), kind('declaredValueCents')]).toEqual([
      'integer',
      'boolean',
      'timestamp',
      'text',
      'integer',
    ]);
    expect(selectResources(['contacts'])[0]?.columns.find((c) => c.field === 'communicationPreferences')?.kind).toBe(
      'json',
    );
    expect(selectResources(['customers'])[0]?.includeDeleted).toBe(true);
    expect(() => selectResources(['trucks'])).toThrow(/Unknown resource\(s\): trucks/);
  });
});

describe('SqlSink safety', () => {
  it('refuses to write into a table it did not create', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'vsf-foreign-')), 'app.db');
    // Someone else's `locations` table in the same database.
    const app = new Database(file);
    app.exec('create table locations (id text)');
    app.close();
    const sink = openSink(`sqlite:${file}`);
    await expect(sink.prepare([locations])).rejects.toThrow(/not a vsf mirror table/);
    await sink.close();
  });

  it('continues a mirror made by the knex-based sink of earlier releases', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'vsf-knex-mirror-')), 'mirror.db');
    // The tables exactly as the earlier sink created them through knex's schema builder.
    const old = knex({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true });
    await old.schema.createTable('vsf_sync_state', (t) => {
      t.text('resource').primary();
      t.text('watermark');
      t.text('checkpoint');
      t.text('updated_at').notNullable();
    });
    await old.schema.createTable('vsf_sync_lock', (t) => {
      t.text('name').primary();
      t.text('owner').notNullable();
      t.integer('pid').notNullable();
      t.text('host').notNullable();
      t.text('acquired_at').notNullable();
    });
    await old.schema.createTable('locations', (t) => {
      for (const c of locations.columns) {
        const column =
          c.kind === 'boolean'
            ? t.boolean(c.column)
            : c.kind === 'integer'
              ? t.bigInteger(c.column)
              : c.column === 'id'
                ? t.string(c.column)
                : t.text(c.column);
        if (c.column === 'id') column.primary();
      }
      t.text('synced_at').notNullable();
      t.text('synced_run').notNullable();
    });
    await old('locations').insert({ id: 'a', name: 'old', is_active: 1, synced_at: 'x', synced_run: 'r0' });
    await old('vsf_sync_state').insert({
      resource: 'locations',
      watermark: '2026-01-01T00:00:00.000Z',
      updated_at: 'x',
    });
    await old.destroy();

    const sink = openSink(`sqlite:${file}`);
    await sink.prepare([locations]);
    expect((await sink.getState(locations)).watermark).toBe('2026-01-01T00:00:00.000Z');
    const record = { id: 'b', name: 'new', isActive: false, updatedAt: '2026-02-01T00:00:00.000Z' };
    const checkpoint = { runId: 'r1', mode: 'full', startedAt: 'x', nextPage: 2, updatedAfter: null, firstTotal: 1 };
    await sink.applyPage(locations, [record], checkpoint as Checkpoint);
    expect((await sink.readAll(locations)).map((r) => [r.id, r.name, r.isActive])).toEqual([
      ['a', 'old', true],
      ['b', 'new', false],
    ]);
    await sink.close();
  });
});
