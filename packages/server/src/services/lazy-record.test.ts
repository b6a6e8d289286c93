import { describe, expect, it } from 'vitest';
import { lazyRecord, lazyRecordOf } from './lazy-record.js';

describe('lazyRecord', () => {
  it('makes each value on its first read only, keeps it, and lists every key', () => {
    const made: string[] = [];
    const record = lazyRecord<{ a: { name: string }; b: { name: string } }>({
      a: () => {
        made.push('a');
        return { name: 'a' };
      },
      b: () => {
        made.push('b');
        return { name: 'b' };
      },
    });
    expect(made).toEqual([]);
    const first = record.a;
    expect(record.a).toBe(first);
    expect(made).toEqual(['a']);
    expect(Object.keys(record)).toEqual(['a', 'b']);
    expect(Object.values(record).map((value) => value.name)).toEqual(['a', 'b']);
    expect(made).toEqual(['a', 'b']);
  });
});

describe('lazyRecordOf', () => {
  const recordOf = lazyRecordOf<{ db: string }, { db: string; upper: string }>({
    db: (deps) => deps.db,
    upper: (_deps, record) => record.db.toUpperCase(),
  });

  it("gives each record its own dependencies and values, and lets one value read the record's others", () => {
    const [a, b] = [recordOf({ db: 'pool' }), recordOf({ db: 'trx' })];
    expect(a.upper).toBe('POOL');
    expect(b.upper).toBe('TRX');
    expect(a.db).toBe('pool');
  });

  it('lists its keys like a plain object, answers `in`, and refuses writes', () => {
    const record = recordOf({ db: 'x' });
    expect(Object.keys(record)).toEqual(['db', 'upper']);
    expect({ ...record }).toEqual({ db: 'x', upper: 'X' });
    expect('upper' in record).toBe(true);
    expect('other' in record).toBe(false);
    expect((record as Record<string, unknown>).other).toBeUndefined();
    expect(() => {
      (record as { db: string }).db = 'changed';
    }).toThrow(TypeError);
    expect(record.db).toBe('x');
  });
});
