/** The mock's time: the real clock moved by `advance`, and strictly increasing between writes. */
export interface MockClock {
  now(): Date;
  /** Moves the mock's time forward (expiring keys and idempotency keys, dating writes and `updatedAfter`). */
  advance(ms: number): void;
}

export class Clock implements MockClock {
  private offset = 0;
  private lastWrite = 0;

  now(): Date {
    return new Date(Date.now() + this.offset);
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) {
      throw new RangeError(`clock.advance(ms) takes a finite number of milliseconds >= 0 (got ${String(ms)})`);
    }
    this.offset += ms;
  }

  /**
   * The time of a write: later than every write before it, so that records written one after the other
   * list newest first as they would on the server, where a request takes longer than a millisecond.
   */
  writeTime(): Date {
    this.lastWrite = Math.max(this.now().getTime(), this.lastWrite + 1);
    return new Date(this.lastWrite);
  }
}
