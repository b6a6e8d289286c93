import { describe, expect, it } from 'vitest';
import { distinctIdCount, lastOfEachId } from './distinct-ids.js';

describe('distinct ids of a page', () => {
  it('counts each id once, whatever their order', () => {
    expect(distinctIdCount([])).toBe(0);
    expect(distinctIdCount([{ id: 'a' }])).toBe(1);
    expect(distinctIdCount([{ id: 'b' }, { id: 'a' }, { id: 'c' }])).toBe(3);
    expect(distinctIdCount([{ id: 'b' }, { id: 'a' }, { id: 'b' }, { id: 'a' }])).toBe(2);
    // Ids compare as the mirror stores them, as text.
    expect(distinctIdCount([{ id: 1 }, { id: '1' }])).toBe(1);
  });

  it('keeps each id where it first appears, with its last version', () => {
    const records = [
      { id: 'b', v: 1 },
      { id: 'a', v: 1 },
      { id: 'b', v: 2 },
    ];
    expect(lastOfEachId(records)).toEqual([
      { id: 'b', v: 2 },
      { id: 'a', v: 1 },
    ]);
  });
});
