import { describe, expect, it } from 'vitest';
import { GroupedRoundTrips } from './grouped-round-trips.js';

describe('GroupedRoundTrips', () => {
  it('sends the keys asked together in one round trip, those asked meanwhile in the next, a key once', async () => {
    const groups: [string, number][][] = [];
    let release: () => void = () => {};
    const trips = new GroupedRoundTrips<string, number, string>(async (group) => {
      groups.push([...group]);
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return new Map([...group].filter(([key]) => key !== 'unknown').map(([key, n]) => [key, `${key}${n}`]));
    });
    const first = [trips.add('a', 1), trips.add('b', 2), trips.add('a', 9)];
    await new Promise((resolve) => setImmediate(resolve));
    expect(groups).toEqual([
      [
        ['a', 1],
        ['b', 2],
      ],
    ]);
    const second = [trips.add('c', 3), trips.add('unknown', 4)];
    release();
    expect(await Promise.all(first)).toEqual(['a1', 'b2', 'a1']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(groups[1]).toEqual([
      ['c', 3],
      ['unknown', 4],
    ]);
    release();
    expect(await Promise.all(second)).toEqual(['c3', undefined]);
  });

  it('fails every caller of a group whose round trip fails, and goes on with the next', async () => {
    let fail = true;
    const trips = new GroupedRoundTrips<string, null, number>(async (group) => {
      if (fail) throw new Error('down');
      return new Map([...group.keys()].map((key) => [key, 1]));
    });
    await expect(Promise.all([trips.add('a', null), trips.add('b', null)])).rejects.toThrow('down');
    fail = false;
    expect(await trips.add('a', null)).toBe(1);
  });

  it('flush sends a delayed group at once and resolves when it and anything queued meanwhile are written', async () => {
    const groups: string[][] = [];
    const trips = new GroupedRoundTrips<string, null, true>(async (group) => {
      groups.push([...group.keys()]);
      await new Promise((resolve) => setTimeout(resolve, 20));
      return new Map([...group.keys()].map((key) => [key, true as const]));
    }, 60_000);
    await trips.flush();
    const first = [trips.add('a', null), trips.add('b', null)];
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(groups).toEqual([]);
    const flushed = trips.flush();
    const late = trips.add('c', null);
    await flushed;
    expect(groups).toEqual([['a', 'b'], ['c']]);
    expect(await Promise.all([...first, late])).toEqual([true, true, true]);
  });
});
