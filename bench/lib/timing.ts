import { median } from './figure.js';

/** Median wall time in ms of `fn` over `runs` calls, after `warmup` unmeasured ones. */
export async function medianMs(fn: () => Promise<unknown>, runs: number, warmup = 3): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

/**
 * Medians of two operations measured in alternation, so a burst of load from elsewhere on the machine
 * lands on both sides of the ratio instead of one.
 */
export async function interleavedMedians(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  runs: number,
  warmup = 3,
): Promise<[number, number]> {
  for (let i = 0; i < warmup; i++) {
    await a();
    await b();
  }
  const sa: number[] = [];
  const sb: number[] = [];
  for (let i = 0; i < runs; i++) {
    let start = performance.now();
    await a();
    sa.push(performance.now() - start);
    start = performance.now();
    await b();
    sb.push(performance.now() - start);
  }
  return [median(sa), median(sb)];
}
