import type { Knex } from 'knex';
import type { ChangeListener } from '../db/change-listener.js';
import { TEAM_EVENTS_CHANNEL } from '../db/migrations/031-team-event-notify.js';
import { type FeedHead, feedHead, watchFeed } from '../repositories/team-events.js';

export interface FeedWakeOptions {
  /**
   * How often a waiter reads its team's head while commits cannot be heard (the listener is down, or there
   * is none): the bound on how late a wait answers then, and each waiter's one query per interval.
   */
  fallbackPollMs?: number;
  /** How long one lease keeps a team's commits announced: one write to its head row per lease and instance. */
  leaseMs?: number;
  /**
   * How long after each heartbeat of the listener (a proof it hears everything sent before) a head known
   * in memory is trusted: a stalled connection raises no error, so trust must run out on its own.
   */
  trustMs?: number;
}

/** A lease is renewed when it would end less than this after the wait it must cover. */
const LEASE_MARGIN_MS = 5_000;
/** Leases and known heads kept before ended ones are swept (one entry per team watched lately). */
const MAX_TEAMS = 10_000;

/** A head read while this instance's commits were heard; `head` is filled in once the read answers. */
interface KnownHead {
  head?: FeedHead;
}

/** A waiter's interest in its team's next commit, taken before it reads the head (a commit after is heard). */
export interface FeedWatch {
  /**
   * Resolves at the team's next announced commit, or when the waiter must look for itself (the listener came
   * back after missing what was sent meanwhile, or is down and the fallback poll is due), at `deadline`
   * (`Date.now()` time) or when `signal` aborts.
   */
  next(deadline: number, signal?: AbortSignal): Promise<void>;
  stop(): void;
}

/**
 * Wakes waiting feed requests and the webhook dispatcher when a team's commit is announced on the
 * instance's one LISTEN connection (migration 031), instead of each waiter reading its team's head on a
 * timer. Commits are announced only for teams under a lease (`head` and the dispatcher take them), and
 * heard only while the listener is up: meanwhile each waiter polls at `fallbackPollMs`.
 */
export class FeedWake {
  private readonly waiting = new Map<string, Set<() => void>>();
  private readonly commitHandlers = new Set<(teamId: string) => void>();
  /** When each lease this instance took ends, at the latest (`Date.now()` before the statement that set it). */
  private readonly leases = new Map<string, number>();
  /**
   * Each watched team's head as last read, until its next announced commit: a waiter at the head then costs
   * no query at all (an idle follower's every re-poll used to read the head, then an empty page).
   */
  private readonly known = new Map<string, KnownHead>();
  /** `performance.now()` of the listener's last proof of hearing; undefined while it gives none (PGlite). */
  private provenAt: number | undefined;
  private readonly fallbackPollMs: number;
  private readonly trustMs: number;
  readonly leaseMs: number;

  constructor(
    /** The root executor: a lease is written in a statement of its own, never inside a request's transaction. */
    private readonly db: Knex,
    private readonly listener?: ChangeListener,
    options: FeedWakeOptions = {},
  ) {
    this.fallbackPollMs = options.fallbackPollMs ?? 1_000;
    this.leaseMs = options.leaseMs ?? 120_000;
    this.trustMs = options.trustMs ?? 2_000;
    listener?.on(TEAM_EVENTS_CHANNEL, (teamId) => this.announce(teamId));
    // Up again: whatever committed meanwhile was not heard. Down: waiters switch to the fallback poll.
    listener?.watch({
      listening: (sentAt) => {
        this.provenAt = sentAt;
        this.wakeAll();
      },
      alive: (sentAt) => {
        this.provenAt = Math.max(this.provenAt ?? sentAt, sentAt);
      },
      lost: () => this.wakeAll(),
    });
  }

  /** True while commits are heard. */
  get listening(): boolean {
    return this.listener?.listening ?? false;
  }

  /**
   * True while commits are heard and the connection proved so lately: a listener that gives heartbeats
   * (PostgreSQL) is trusted `trustMs` after each; one that gives none (in-process PGlite) cannot stall.
   */
  private get trusted(): boolean {
    return this.listening && (this.provenAt === undefined || performance.now() - this.provenAt < this.trustMs);
  }

  /**
   * The team's head without a query, when this instance read it while hearing the team's commits and has
   * heard none since (and still hears them, under a lease that covers `until` at least): undefined otherwise.
   * A commit whose announcement is still on its way is not in it, as if it had committed a moment later; a
   * waiter that watches first is woken by that announcement all the same.
   */
  knownHead(teamId: string, until = Date.now()): FeedHead | undefined {
    if (!this.trusted || (this.leases.get(teamId) ?? 0) < until + LEASE_MARGIN_MS) return undefined;
    return this.known.get(teamId)?.head;
  }

  /** Calls `handler` with the team of every announced commit, and with '' when the listener comes back. */
  onCommit(handler: (teamId: string) => void): () => void {
    this.commitHandlers.add(handler);
    return () => this.commitHandlers.delete(handler);
  }

  /** Registers for the team's next commit; take it before reading the head, stop it when done. */
  watch(teamId: string): FeedWatch {
    let wake: () => void = () => {};
    const woken = new Promise<void>((resolve) => {
      wake = resolve;
    });
    const set = this.waiting.get(teamId) ?? new Set<() => void>();
    set.add(wake);
    this.waiting.set(teamId, set);
    return {
      next: (deadline, signal) => {
        const left = deadline - Date.now();
        return firstOf(woken, this.trusted ? left : Math.min(left, this.fallbackPollMs), signal);
      },
      stop: () => {
        set.delete(wake);
        if (set.size === 0 && this.waiting.get(teamId) === set) this.waiting.delete(teamId);
      },
    };
  }

  /**
   * The team's head, read once its commits are announced until `until` at least (`Date.now()` time): a lease
   * is taken first when this instance holds none that long, in the statement that reads the head.
   */
  async head(teamId: string, until: number): Promise<FeedHead> {
    const known = this.knownHead(teamId, until);
    if (known) return known;
    if (!this.listening) return feedHead(this.db, teamId);
    // Announced commits drop the slot: one heard while the read is under way leaves its answer unremembered.
    const slot: KnownHead = {};
    this.known.set(teamId, slot);
    let head: FeedHead;
    if ((this.leases.get(teamId) ?? 0) >= until + LEASE_MARGIN_MS) {
      head = await feedHead(this.db, teamId);
    } else {
      const started = Date.now();
      const ms = Math.max(this.leaseMs, until - started + LEASE_MARGIN_MS);
      head = await watchFeed(this.db, teamId, Math.ceil(ms / 1000));
      this.noteLease(teamId, started + ms);
    }
    if (this.known.get(teamId) === slot) slot.head = head;
    return head;
  }

  /** Records a lease taken by this instance (the dispatcher's teams too), forgetting those that ended. */
  noteLease(teamId: string, until: number): void {
    if (this.leases.size >= MAX_TEAMS) {
      const now = Date.now();
      for (const [team, end] of this.leases) {
        if (end > now) continue;
        this.leases.delete(team);
        this.known.delete(team);
      }
    }
    this.leases.set(teamId, until);
  }

  private announce(teamId: string): void {
    this.known.delete(teamId);
    const set = this.waiting.get(teamId);
    if (set) {
      this.waiting.delete(teamId);
      for (const wake of set) wake();
    }
    for (const handler of this.commitHandlers) handler(teamId);
  }

  private wakeAll(): void {
    this.known.clear();
    const sets = [...this.waiting.values()];
    this.waiting.clear();
    for (const set of sets) for (const wake of set) wake();
    for (const handler of this.commitHandlers) handler('');
  }
}

/** Resolves when `woken` does, after `ms`, or when `signal` aborts, whichever is first. */
function firstOf(woken: Promise<void>, ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted || ms <= 0) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    void woken.then(done);
  });
}
