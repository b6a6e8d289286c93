import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  locations,
  locationRecord as record,
  checkpoint as runCheckpoint,
} from '../../../test/support/sink-fixtures.js';
import { openSink } from '../open-sink.js';

const PG = process.env.TEST_DATABASE_URL;
const checkpoint = (nextPage: number) => runCheckpoint(nextPage, 500);
const schema = `vsf_page_writer_${Math.random().toString(36).slice(2, 10)}`;

/** A sink in a schema of its own: the test database also holds the server's tables. */
async function newSink() {
  const admin = new pg.Client({ connectionString: PG });
  await admin.connect();
  await admin.query(`create schema if not exists ${schema}`);
  await admin.end();
  const sink = openSink(`${PG}${PG?.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`);
  await sink.prepare([locations]);
  return sink;
}

afterAll(async () => {
  if (!PG) return;
  const admin = new pg.Client({ connectionString: PG });
  await admin.connect();
  await admin.query(`drop schema if exists ${schema} cascade`);
  await admin.end();
});

describe.skipIf(!PG)('PostgreSQL page writer', () => {
  it('binds pages of every size from its kept arrays, each page whole and alone', async () => {
    const sink = await newSink();
    // 450 records: statements of 200, 200 and 50 rows; then a page of 50 and one of 200 reuse their arrays.
    const first = Array.from({ length: 450 }, (_, i) => record(`a${String(i).padStart(3, '0')}`));
    expect(await sink.applyPage(locations, first, checkpoint(2))).toEqual({ upserted: 450 });
    const small = Array.from({ length: 50 }, (_, i) => record(`b${String(i).padStart(3, '0')}`));
    expect(await sink.applyPage(locations, small, checkpoint(3))).toEqual({ upserted: 50 });
    const renamed = first.slice(0, 200).map((r) => record(r.id, `renamed ${r.id}`));
    expect(await sink.applyPage(locations, renamed, checkpoint(4))).toEqual({ upserted: 200 });
    const rows = await sink.readAll(locations);
    expect(rows).toHaveLength(500);
    expect(rows.filter((r) => String(r.name).startsWith('renamed'))).toHaveLength(200);
    expect(rows.find((r) => r.id === 'a200')).toMatchObject({ name: 'a200' });
    expect((await sink.getState(locations)).checkpoint).toEqual(checkpoint(4));
    await sink.close();
  });

  it('writes an id a page repeats once, as its last version', async () => {
    const sink = await newSink();
    const page = [record('x', 'first'), record('y'), record('x', 'last')];
    expect(await sink.applyPage(locations, page, checkpoint(2))).toEqual({ upserted: 2 });
    expect((await sink.readByIds(locations, ['x']))[0]).toMatchObject({ id: 'x', name: 'last' });
    await sink.close();
  });
});
