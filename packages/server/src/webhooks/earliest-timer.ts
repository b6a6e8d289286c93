/**
 * One pending timer that fires at the earliest time asked of it: a later request never postpones an
 * earlier one. The dispatcher asks "now" when a commit wakes it and "at the next poll" when a pass ends;
 * a plain `clearTimeout` + `setTimeout` let a pass ending just after a wake-up push that wake-up back to
 * the next poll (a commit delivered a minute late).
 */
export class EarliestTimer {
  private timer: NodeJS.Timeout | undefined;
  private due = Number.POSITIVE_INFINITY;

  /** Runs `run` in `delayMs`, unless a run is already due as soon or sooner (then that one stands). */
  at(delayMs: number, run: () => void): void {
    const due = performance.now() + delayMs;
    if (this.timer && due >= this.due) return;
    clearTimeout(this.timer);
    this.due = due;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.due = Number.POSITIVE_INFINITY;
      run();
    }, delayMs);
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.due = Number.POSITIVE_INFINITY;
  }
}
