import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { locations, locationRecord as record, checkpoint as runCheckpoint } from '../../test/support/sink-fixtures.js';
import { openSink } from './open-sink.js';

const checkpoint = (nextPage: number) => runCheckpoint(nextPage, 2);

describe('SqlSink page checkpoints (SQLite)', () => {
  it('saves each page with its checkpoint, keeping the watermark and feed cursor of the last run', async () => {
    const sink = openSink(`sqlite:${join(mkdtempSync(join(tmpdir(), 'vsf-checkpoint-')), 'm.db')}`);
    await sink.prepare([locations]);
    await sink.applyChanges([{ resource: locations, upserts: [], deletes: [] }], {
      cursor: 42,
      watermark: '2026-05-01T00:00:00.000Z',
    });
    // Pages through the writer its statements were prepared for, page after page.
    await sink.applyPage(locations, [record('a')], checkpoint(2));
    await sink.applyPage(locations, [record('b'), record('b')], checkpoint(3));
    expect(await sink.getState(locations)).toEqual({
      watermark: '2026-05-01T00:00:00.000Z',
      checkpoint: checkpoint(3),
      feedCursor: 42,
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
    });
    expect((await sink.readAll(locations)).map((r) => r.id)).toEqual(['a', 'b']);
    await sink.close();
  });

  it('saves the first checkpoint of a resource that has no state yet', async () => {
    const sink = openSink(`sqlite:${join(mkdtempSync(join(tmpdir(), 'vsf-checkpoint-')), 'm.db')}`);
    await sink.prepare([locations]);
    expect(await sink.applyPage(locations, [record('a'), record('a')], checkpoint(2))).toEqual({ upserted: 1 });
    expect(await sink.getState(locations)).toEqual({
      watermark: null,
      checkpoint: checkpoint(2),
      feedCursor: null,
      updatedAt: expect.any(String),
    });
    await sink.close();
  });
});
