import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { locationRecord, locations } from '../../../test/support/sink-fixtures.js';
import type { Checkpoint, ResourceChanges } from '../sink.js';
import { SqlSink } from '../sql-sink.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

const mirrorFile = () => join(mkdtempSync(join(tmpdir(), 'vsf-id-index-')), 'm.db');

const checkpoint = (runId: string, nextPage: number): Checkpoint => ({
  runId,
  mode: 'full',
  startedAt: '2026-06-01T12:00:00.000Z',
  nextPage,
  updatedAfter: null,
  firstTotal: 1000,
});

/** The unique indexes on `locations`, and its rows as stored (run marks included), read beside the sink. */
function stored(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    const unique = db
      .prepare(`select name from pragma_index_list('locations') where "unique" = 1`)
      .all()
      .map((r) => (r as { name: string }).name);
    const rows = db.prepare('select id, name, updated_at, synced_run from locations order by id').all();
    return { unique, rows };
  } finally {
    db.close();
  }
}

/** A small seeded generator: the same seed writes the same pages. */
function random(seed: number) {
  let state = seed >>> 0;
  return (n: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % n;
  };
}

/**
 * Pages of a run that met records twice: few ids, so most repeat, within a page and across pages, with
 * versions arriving out of order, ties, and (when the field allows) no `updatedAt`.
 */
function pagesWithRepeats(seed: number): Record<string, unknown>[][] {
  const pick = random(seed);
  return Array.from({ length: 6 }, (_, page) =>
    Array.from({ length: 8 }, (_, i) => ({
      ...locationRecord(`loc-${pick(12)}`, `seed ${seed} page ${page} row ${i}`),
      updatedAt: pick(6) === 0 ? null : `2026-06-01T1${pick(3)}:00:00.000Z`,
    })),
  );
}

async function completedEmptyRun(sink: SqlSink): Promise<void> {
  await sink.completeRun(locations, { runId: 'r0', watermark: '2026-06-01T00:00:00.000Z', prune: false });
}

describe('SQLite mirror tables load without their id index', () => {
  it('loads a new table by plain inserts and indexes it when the first run completes', async () => {
    const file = mirrorFile();
    const sink = SqlSink.sqlite(file);
    await sink.prepare([locations]);
    await sink.applyPage(locations, [locationRecord('b'), locationRecord('a')], checkpoint('r1', 2));
    expect(stored(file).unique).toEqual([]);
    await sink.completeRun(locations, { runId: 'r1', watermark: '2026-06-01T12:00:00.000Z', prune: true });
    expect(stored(file).unique).toEqual(['vsf_locations_id']);
    // From here pages upsert: a record read again replaces its row.
    await sink.applyPage(locations, [locationRecord('a', 'renamed')], checkpoint('r2', 2));
    expect(stored(file).rows).toEqual([
      { id: 'a', name: 'renamed', updated_at: '2026-06-01T11:00:00.000Z', synced_run: 'r2' },
      { id: 'b', name: 'b', updated_at: '2026-06-01T11:00:00.000Z', synced_run: 'r1' },
    ]);
    await sink.close();
  });

  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`keeps, of a record read twice while loading, the row the upserts keep (seed ${seed})`, async () => {
      const files = [mirrorFile(), mirrorFile()];
      const [loading, indexed] = files.map((file) => SqlSink.sqlite(file)) as [SqlSink, SqlSink];
      await indexed.prepare([locations]);
      await completedEmptyRun(indexed);
      await loading.prepare([locations]);
      const pages = pagesWithRepeats(seed);
      for (const sink of [loading, indexed]) {
        for (const [i, page] of pages.entries()) await sink.applyPage(locations, page, checkpoint(`r${i}`, i + 2));
        await sink.completeRun(locations, { runId: 'r5', watermark: '2026-06-02T00:00:00.000Z', prune: false });
        await sink.close();
      }
      const [fromLoad, fromUpserts] = files.map(stored);
      expect(fromLoad?.unique).toEqual(['vsf_locations_id']);
      expect(fromLoad?.rows).toEqual(fromUpserts?.rows);
      expect(fromLoad?.rows.length).toBeGreaterThan(1);
    });
  }

  it('resumes a killed load into the same table, and indexes it when that run completes', async () => {
    const file = mirrorFile();
    const first = SqlSink.sqlite(file);
    await first.prepare([locations]);
    await first.applyPage(locations, [locationRecord('a'), locationRecord('b')], checkpoint('r1', 2));
    await first.close();
    const resumed = SqlSink.sqlite(file);
    await resumed.prepare([locations]);
    expect((await resumed.getState(locations)).checkpoint).toEqual(checkpoint('r1', 2));
    // The page after the checkpoint, and the last one read again, as a resumed run may.
    await resumed.applyPage(locations, [locationRecord('b', 'again'), locationRecord('c')], checkpoint('r1', 3));
    await resumed.completeRun(locations, { runId: 'r1', watermark: '2026-06-01T12:00:00.000Z', prune: true });
    const { unique, rows } = stored(file);
    expect(unique).toEqual(['vsf_locations_id']);
    expect(rows.map((r) => (r as { id: string; name: string }).name)).toEqual(['a', 'again', 'c']);
    expect(await resumed.getState(locations)).toMatchObject({
      checkpoint: null,
      watermark: '2026-06-01T12:00:00.000Z',
    });
    await resumed.close();
  });

  it('indexes a table still loading before the events feed writes to it', async () => {
    const file = mirrorFile();
    const sink = SqlSink.sqlite(file);
    await sink.prepare([locations]);
    await sink.applyPage(
      locations,
      [locationRecord('a'), locationRecord('b'), locationRecord('a', 'a2')],
      checkpoint('r1', 2),
    );
    const changes: ResourceChanges = {
      resource: locations,
      upserts: [{ ...locationRecord('c'), updatedAt: '2026-06-01T13:00:00.000Z' }],
      deletes: ['b'],
    };
    expect(await sink.applyChanges([changes], { cursor: 7, watermark: null })).toEqual({ upserted: 1, deleted: 1 });
    const { unique, rows } = stored(file);
    expect(unique).toEqual(['vsf_locations_id']);
    expect(rows.map((r) => (r as { name: string }).name)).toEqual(['a2', 'c']);
    await sink.close();
  });

  it('keeps upserting into a mirror made with a primary key before tables loaded unindexed', async () => {
    const file = mirrorFile();
    const columns = locations.columns.map((c) => `"${c.column}" ${c.kind === 'boolean' ? 'integer' : 'text'}`);
    const db = new Database(file);
    db.exec(
      `create table locations (${columns.join(', ')}, synced_at text not null, synced_run text not null, primary key (id))`,
    );
    db.close();
    const sink = SqlSink.sqlite(file);
    await sink.prepare([locations]);
    await sink.applyPage(locations, [locationRecord('a'), locationRecord('a', 'a2')], checkpoint('r1', 2));
    expect(stored(file).rows).toEqual([
      { id: 'a', name: 'a2', updated_at: '2026-06-01T11:00:00.000Z', synced_run: 'r1' },
    ]);
    await sink.completeRun(locations, { runId: 'r1', watermark: '2026-06-01T12:00:00.000Z', prune: true });
    expect(stored(file).unique).toEqual(['sqlite_autoindex_locations_1']);
    await sink.close();
  });
});
