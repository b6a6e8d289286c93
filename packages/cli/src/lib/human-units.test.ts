import { describe, expect, it } from 'vitest';
import { humanBytes, humanDuration } from './human-units.js';

describe('human units', () => {
  it('bytes in B, KiB and MiB', () => {
    expect([0, 512, 1024, 12_595, 3 * 1024 * 1024].map(humanBytes)).toEqual([
      '0 B',
      '512 B',
      '1.0 KiB',
      '12.3 KiB',
      '3.0 MiB',
    ]);
  });

  it('durations in s, min and h', () => {
    expect([0, 44_600, 60_000, 200_000, 3_900_000].map(humanDuration)).toEqual([
      '0 s',
      '45 s',
      '1 min',
      '3 min 20 s',
      '1 h 5 min',
    ]);
  });
});
