/**
 * The wait after a delivery's `attempts`-th failed attempt: the base doubling per attempt, capped, with ±20%
 * jitter so endpoints that failed together (a receiver's outage) are not all retried in the same second.
 */
export function retryDelayMs(
  attempts: number,
  options: { baseBackoffMs: number; maxBackoffMs: number },
  random: () => number = Math.random,
): number {
  const doubled = options.baseBackoffMs * 2 ** Math.min(Math.max(attempts - 1, 0), 30);
  return Math.round(Math.min(doubled, options.maxBackoffMs) * (0.8 + 0.4 * random()));
}

/** `24 h`, `90 min`, `1.5 s`: a duration as an endpoint's `disabledReason` names it. */
export function describeDuration(ms: number): string {
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  return ms >= 1_000 ? `${Number((ms / 1_000).toFixed(1))} s` : `${ms} ms`;
}
