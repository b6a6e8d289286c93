import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EarliestTimer } from './earliest-timer.js';

let timer: EarliestTimer;
let runs: string[];
/** A run that records its name when it fires. */
const run = (name: string) => () => runs.push(name);

beforeEach(() => {
  vi.useFakeTimers();
  timer = new EarliestTimer();
  runs = [];
});
afterEach(() => vi.useRealTimers());

describe('EarliestTimer', () => {
  it('keeps a run due now when a later one is asked for after it (a wake-up, then a pass ending)', () => {
    timer.at(0, run('wake'));
    timer.at(60_000, run('poll'));
    vi.advanceTimersByTime(1);
    expect(runs).toEqual(['wake']);
  });

  it('brings a run forward when an earlier one is asked for, and runs once', () => {
    timer.at(60_000, run('poll'));
    timer.at(0, run('wake'));
    vi.advanceTimersByTime(120_000);
    expect(runs).toEqual(['wake']);
  });

  it('takes a new request once the pending run has fired, and none after cancel', () => {
    timer.at(10, run('first'));
    vi.advanceTimersByTime(10);
    timer.at(50, run('second'));
    timer.at(5, run('third'));
    timer.cancel();
    vi.advanceTimersByTime(100);
    expect(runs).toEqual(['first']);
  });
});
