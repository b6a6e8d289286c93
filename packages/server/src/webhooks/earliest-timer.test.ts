import { afterEach, describe, expect, it, vi } from 'vitest';
import { EarliestTimer } from './earliest-timer.js';

afterEach(() => vi.useRealTimers());

describe('EarliestTimer', () => {
  it('keeps a run due now when a later one is asked for after it (a wake-up, then a pass ending)', () => {
    vi.useFakeTimers();
    const timer = new EarliestTimer();
    const runs: string[] = [];
    timer.at(0, () => runs.push('wake'));
    timer.at(60_000, () => runs.push('poll'));
    vi.advanceTimersByTime(1);
    expect(runs).toEqual(['wake']);
  });

  it('brings a run forward when an earlier one is asked for, and runs once', () => {
    vi.useFakeTimers();
    const timer = new EarliestTimer();
    const runs: string[] = [];
    timer.at(60_000, () => runs.push('poll'));
    timer.at(0, () => runs.push('wake'));
    vi.advanceTimersByTime(120_000);
    expect(runs).toEqual(['wake']);
  });

  it('takes a new request once the pending run has fired, and none after cancel', () => {
    vi.useFakeTimers();
    const timer = new EarliestTimer();
    const runs: string[] = [];
    timer.at(10, () => runs.push('first'));
    vi.advanceTimersByTime(10);
    timer.at(50, () => runs.push('second'));
    timer.at(5, () => runs.push('third'));
    timer.cancel();
    vi.advanceTimersByTime(100);
    expect(runs).toEqual(['first']);
  });
});
