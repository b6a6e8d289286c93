import { describe, expect, it } from 'vitest';
import { isoTime } from './iso-time.js';

describe('isoTime', () => {
  it('is toISOString, digit for digit', () => {
    const times = [
      0,
      Date.UTC(2026, 10, 25, 8, 0, 0, 7),
      Date.UTC(1999, 11, 31, 23, 59, 59, 999),
      Date.UTC(2000, 1, 29, 0, 0, 0, 10),
      Date.UTC(1900, 0, 1),
      Date.parse('0000-01-01T00:00:00.000Z'),
      Date.parse('0099-06-15T12:34:56.789Z'),
      Date.parse('9999-12-31T23:59:59.999Z'),
    ];
    for (let t = -2e12; t < 4e12; t += 7_777_777_777) times.push(t);
    for (const time of times) expect(isoTime(new Date(time))).toBe(new Date(time).toISOString());
  });

  it('leaves six-digit years and invalid dates to toISOString', () => {
    for (const time of [Date.parse('-000001-01-01T00:00:00.000Z'), Date.parse('+010000-01-01T00:00:00.000Z')])
      expect(isoTime(new Date(time))).toBe(new Date(time).toISOString());
    expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
  });

  it('defaults to now', () => {
    const before = Date.now();
    const now = Date.parse(isoTime());
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });
});
