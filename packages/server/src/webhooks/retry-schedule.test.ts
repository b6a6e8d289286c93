import { describe, expect, it } from 'vitest';
import { describeDuration, retryDelayMs } from './retry-schedule.js';

const options = { baseBackoffMs: 10_000, maxBackoffMs: 3_600_000 };

describe('retryDelayMs', () => {
  it('doubles from the base per failed attempt, up to the cap', () => {
    const middle = () => 0.5;
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, options, middle))).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect(retryDelayMs(20, options, middle)).toBe(3_600_000);
    expect(retryDelayMs(10_000, options, middle)).toBe(3_600_000);
  });

  it('jitters within ±20%', () => {
    expect(retryDelayMs(1, options, () => 0)).toBe(8_000);
    expect(retryDelayMs(1, options, () => 0.999_999)).toBe(12_000);
  });
});

describe('describeDuration', () => {
  it.each([
    [86_400_000, '24 h'],
    [5_400_000, '90 min'],
    [1_500, '1.5 s'],
    [800, '800 ms'],
  ])('%d ms → %s', (ms, text) => expect(describeDuration(ms)).toBe(text));
});
