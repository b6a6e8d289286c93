import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/connect-database.js';
import { parseTimestamptz, parseAnyForm as pgParser } from '../src/db/timestamptz-parser.js';
import { engineName, openTestDatabase } from './support/test-database.js';

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** A small seeded generator: the same seed, the same timestamps. */
function random(seed: number) {
  let state = seed >>> 0;
  return (n: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % n;
  };
}

/** Timestamps in the form PostgreSQL writes a timestamptz in a UTC session: any year, 0 to 6 fraction digits. */
function utcForms(count: number, seed: number): string[] {
  const pick = random(seed);
  return Array.from({ length: count }, () => {
    const digits = pick(7);
    const fraction = digits === 0 ? '' : `.${pad(pick(10 ** digits), digits)}`;
    const date = `${pad(1 + pick(9999), 4)}-${pad(1 + pick(12), 2)}-${pad(1 + pick(28), 2)}`;
    return `${date} ${pad(pick(24), 2)}:${pad(pick(60), 2)}:${pad(pick(60), 2)}${fraction}+00`;
  });
}

const otherForms = [
  '2026-06-01 11:00:00.123+05:30',
  '2026-06-01 11:00:00-08',
  '2026-06-01 11:00:00.5-03:30:15',
  '0044-03-15 12:00:00+00 BC',
  '0099-12-31 23:59:59.999+00',
  '0001-01-01 00:00:00+00',
  '12026-06-01 11:00:00+00',
  'infinity',
  '-infinity',
];

describe('the timestamptz parser', () => {
  it('is what pg parses timestamps with once the database module is loaded, in place of its own', async () => {
    await import('../src/db/connect-database.js');
    expect(pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text')).toBe(parseTimestamptz);
    expect(pgParser).not.toBe(parseTimestamptz);
    expect(pgParser('2026-06-01 11:00:00.1+00')).toEqual(new Date('2026-06-01T11:00:00.100Z'));
  });

  it('reads every UTC timestamp, and every other form, to the Date pg’s own parser gives', () => {
    for (const text of [...utcForms(20_000, 7), ...otherForms]) {
      const expected = pgParser(text);
      const parsed = parseTimestamptz(text);
      expect([text, Number(parsed)]).toEqual([text, Number(expected)]);
    }
  });
});

describe(`timestamps read back (${engineName})`, () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database?.close());

  it('are the instants stored, to the millisecond, in UTC and in another zone', async () => {
    for (const zone of ['UTC', 'America/St_Johns']) {
      const { rows } = await database.knex.transaction(async (trx) => {
        await trx.raw(`set local timezone = '${zone}'`);
        return trx.raw<{ rows: { at: Date; ms: number }[] }>(
          `select t as at, floor(extract(epoch from t) * 1000)::float8 as ms from (values
            ('2026-06-01 11:00:00.123456+00'::timestamptz), ('2026-06-01 11:00:00+00'), ('1999-12-31 23:59:59.9+00'),
            ('1970-01-01 00:00:00.001+00'), ('2026-03-08 06:30:00.5+00')) as v(t)`,
        );
      });
      for (const row of rows) expect([zone, row.at.getTime()]).toEqual([zone, row.ms]);
    }
  });
});
