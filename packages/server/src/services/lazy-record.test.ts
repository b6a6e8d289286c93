import { describe, expect, it } from 'vitest';
import { lazyRecord } from './lazy-record.js';

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
