import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { locationRecord, locations } from '../../../test/support/sink-fixtures.js';
import type { Checkpoint } from '../sink.js';
import { SqlSink } from '../sql-sink.js';

const checkpoint = (nextPage: number): Checkpoint => ({
  runId: 'r1',
  mode: 'full',
  startedAt: '2026-06-01T12:00:00.000Z',
  nextPage,
  updatedAfter: null,
  firstTotal: 1000,
});

/** Every id of the mirror, by keyset pages of `limit`, as verify and nested lists walk it. */
async function walkIds(sink: SqlSink, limit: number): Promise<string[]> {
  const ids: string[] = [];
  for (let after: string | null = null; ; ) {
    const page = await sink.idsAfter(locations, after, limit);
    if (page.length === 0) return ids;
    ids.push(...page);
    after = page.at(-1) as string;
  }
}

const names = (records: Record<string, unknown>[]) => records.map((r) => r.name).sort();

describe('reading a SQLite table still loading without its id index', () => {
  it('pages its ids in order and finds records by id, page after page written, and once indexed', async () => {
    const sink = SqlSink.sqlite(join(mkdtempSync(join(tmpdir(), 'vsf-loading-ids-')), 'm.db'));
    await sink.prepare([locations]);
    await sink.applyPage(
      locations,
      ['d', 'b', 'a'].map((id) => locationRecord(id)),
      checkpoint(2),
    );
    expect(await walkIds(sink, 2)).toEqual(['a', 'b', 'd']);
    expect(names(await sink.readByIds(locations, ['b', 'd', 'x']))).toEqual(['b', 'd']);

    // Written after the first reads: the ids kept for reading are made again, not read stale.
    await sink.applyPage(locations, [locationRecord('c'), locationRecord('e')], checkpoint(3));
    expect(await walkIds(sink, 2)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(names(await sink.readByIds(locations, ['c', 'e']))).toEqual(['c', 'e']);

    // A record read twice is one id to page, and both of its rows until the index is built.
    await sink.applyPage(locations, [locationRecord('c', 'c2')], checkpoint(4));
    expect(await walkIds(sink, 10)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(names(await sink.readByIds(locations, ['c']))).toEqual(['c', 'c2']);

    await sink.completeRun(locations, { runId: 'r1', watermark: '2026-06-01T12:00:00.000Z', prune: false });
    expect(await walkIds(sink, 3)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(names(await sink.readByIds(locations, ['c', 'a']))).toEqual(['a', 'c2']);
    await sink.applyPage(locations, [locationRecord('f')], checkpoint(2));
    expect(await walkIds(sink, 4)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    await sink.close();
  });

  it('reads a table another run left loading, from a sink that never wrote to it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'vsf-loading-ids-')), 'm.db');
    const writer = SqlSink.sqlite(file);
    await writer.prepare([locations]);
    const ids = Array.from({ length: 450 }, (_, i) => `loc-${String(i).padStart(3, '0')}`);
    for (let i = 0; i < ids.length; i += 200)
      await writer.applyPage(
        locations,
        ids.slice(i, i + 200).map((id) => locationRecord(id)),
        checkpoint(i / 200 + 2),
      );
    await writer.close();
    const reader = SqlSink.sqlite(file);
    expect(await walkIds(reader, 200)).toEqual(ids);
    expect(names(await reader.readByIds(locations, ['loc-449', 'loc-000']))).toEqual(['loc-000', 'loc-449']);
    await reader.close();
  });
});
