import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ResourceSpec, selectResources } from '../resources.js';
import { openSink } from './open-sink.js';
import type { Checkpoint } from './sink.js';

const locations = selectResources(['locations'])[0] as ResourceSpec;
const checkpoint = (nextPage: number): Checkpoint => ({
  runId: 'r1',
  mode: 'full',
  startedAt: '2026-06-01T12:00:00.000Z',
  nextPage,
  updatedAfter: null,
  firstTotal: 2,
});
const record = (id: string) => ({ id, name: id, isActive: true, updatedAt: '2026-06-01T11:00:00.000Z' });

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
    });
    expect((await sink.readAll(locations)).map((r) => r.id)).toEqual(['a', 'b']);
    await sink.close();
  });

  it('saves the first checkpoint of a resource that has no state yet', async () => {
    const sink = openSink(`sqlite:${join(mkdtempSync(join(tmpdir(), 'vsf-checkpoint-')), 'm.db')}`);
    await sink.prepare([locations]);
    expect(await sink.applyPage(locations, [record('a'), record('a')], checkpoint(2))).toEqual({ upserted: 1 });
    expect(await sink.getState(locations)).toEqual({ watermark: null, checkpoint: checkpoint(2), feedCursor: null });
    await sink.close();
  });
});
