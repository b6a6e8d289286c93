import { sequenceEvents } from '../repositories/team-events.js';
import type { Executor } from '../repositories/team-scoped-table.js';

/** How often an instance numbers what waits in the events inbox when nobody reads the feed. */
export const EVENT_INBOX_DRAIN_MS = 5_000;

/**
 * Numbers the events waiting in the inbox (migration 034) every `intervalMs`, for teams whose feed nobody
 * reads: readers number their team's before reading, so this only keeps the inbox small and the events'
 * retention running. One statement a round: a probe of the inbox's index when there is nothing to do.
 */
export class EventInboxDrain {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  /** Teams whose events its rounds numbered, all rounds together. */
  numbered = 0;

  constructor(
    private readonly db: Executor,
    private readonly intervalMs = EVENT_INBOX_DRAIN_MS,
  ) {}

  /** Drains now, then every interval; `onError` hears a failed round (the next one tries again). */
  start(onError: (error: unknown) => void): void {
    const round = () => {
      this.running = sequenceEvents(this.db)
        .then((teams) => {
          this.numbered += teams;
        }, onError)
        .finally(() => {
          this.running = undefined;
          if (!this.stopped) this.timer = setTimeout(round, this.intervalMs).unref();
        });
    };
    round();
  }

  /** Stops the rounds, once the one under way has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
