import {
  type ClaimedDelivery,
  claimDueDeliveries,
  countEndpointAttempt,
  disableEndpoint,
  disableEndpointsOfLostKeys,
  dropDelivery,
  recordAttempt,
  releaseLease,
  watchWebhookTeams,
} from '../repositories/webhook-deliveries.js';
import type { FeedWake } from '../services/feed-wake.js';
import { EarliestTimer } from './earliest-timer.js';
import { effectiveReadScopes, missingScopeForEvent } from './event-read-scopes.js';
import { postWebhook } from './post-webhook.js';
import { describeDuration, retryDelayMs } from './retry-schedule.js';
import { type FanOutDeps, fanOut } from './webhook-fan-out.js';
import type { WebhookOptions } from './webhook-options.js';
import { signatureHeader } from './webhook-signature.js';

export interface DispatcherDeps extends FanOutDeps {
  /** DNS for deliveries; the system resolver by default (tests stub it). */
  resolve?: ((hostname: string) => Promise<string[]>) | undefined;
  /** Wakes the loop when a team with endpoints commits; without it, the loop polls every `pollIntervalMs`. */
  wake?: FeedWake | undefined;
}

/** How often the teams with endpoints are looked up, and their commits' announcement renewed when half gone. */
const WATCH_CHECK_MS = 10_000;

export interface PassResult {
  /** Deliveries created from new events. */
  created: number;
  /** Delivery attempts started. */
  attempted: number;
  /** Events were left for the next pass (an endpoint far behind). */
  more: boolean;
}

/**
 * Delivers the team's events to their webhook endpoints, in every server instance: each pass fans new
 * events out into deliveries, then leases the due ones (one instance per delivery) and POSTs them signed.
 * A failed attempt is retried with backoff until the retry window after the first one has passed; then the
 * delivery is `failed` and its endpoint disabled, as it is after too many failed attempts in a row.
 * Fairly: the claim caps the attempts under way per endpoint and per team and takes teams in turn
 * (claimDueDeliveries), and no attempt waits for another, so one team's dead receivers cost it its own
 * share and nothing of anyone else's.
 */
export class WebhookDispatcher {
  /** The next pass: a wake-up's "now" is never pushed back by a pass that ends after it. */
  private readonly next = new EarliestTimer();
  private passing: Promise<void> | undefined;
  /** A wake-up came while a pass ran: run another as soon as it ends. */
  private again = false;
  private running = false;
  /** Bumped by every start: a pass of an earlier start that ends after a restart schedules nothing. */
  private generation = 0;
  private onError: (error: unknown) => void = () => {};
  /** The attempts under way, each holding one of `concurrency` slots until its own answer or timeout. */
  private readonly inFlight = new Set<Promise<void>>();
  /** The teams with enabled endpoints, as of the last check: their commits wake the loop. */
  private hooked = new Set<string>();
  private nextWatchCheck = 0;
  private stopWaking: (() => void) | undefined;
  /** Aborted by `stop`: attempts under way end at once and give their deliveries back. */
  private stopping = new AbortController();

  constructor(
    private readonly deps: DispatcherDeps,
    private readonly options: WebhookOptions,
  ) {}

  /**
   * Runs passes in the background until `stop`: at once while there is work and a free slot, when an attempt
   * ends (its slot is free), when a team with endpoints commits (announced on the instance's LISTEN
   * connection), else every poll interval (retries coming due, a lost connection). A pass starts its
   * attempts and does not wait for them, so a receiver that never answers holds its own slot, not the next pass.
   */
  start(onError: (error: unknown) => void = () => {}): void {
    if (this.running) return;
    this.running = true;
    this.onError = onError;
    this.generation++;
    this.nextWatchCheck = 0;
    // '' is the listener back after a loss: a commit may have gone unheard.
    this.stopWaking = this.deps.wake?.onCommit((teamId) => {
      if (teamId === '' || this.hooked.has(teamId)) this.schedule(0);
    });
    this.schedule(0);
  }

  /** Stops the background passes; attempts under way are cut short and their deliveries given back. */
  async stop(): Promise<void> {
    this.running = false;
    this.stopWaking?.();
    this.stopWaking = undefined;
    this.next.cancel();
    this.stopping.abort();
    await this.passing;
    await Promise.all(this.inFlight);
    // A `runOnce` after this (tests) must not find its attempts cut short before they start.
    this.stopping = new AbortController();
  }

  private schedule(delay: number): void {
    if (!this.running) return;
    const generation = this.generation;
    this.next.at(delay, () => void this.tick(generation));
  }

  private async tick(generation: number): Promise<void> {
    if (!this.running || generation !== this.generation) return;
    if (this.passing) {
      this.again = true;
      return;
    }
    let busy = false;
    this.passing = this.pass().then(
      ({ result }) => {
        busy = result.more || result.created + result.attempted > 0;
      },
      (error: unknown) => this.onError(error),
    );
    await this.passing;
    this.passing = undefined;
    if (!this.running || generation !== this.generation) return;
    const room = this.inFlight.size < this.options.concurrency;
    this.schedule((busy || this.again) && room ? 0 : this.options.pollIntervalMs);
    this.again = false;
  }

  /** One pass, as the background loop runs it, waiting for its attempts too; tests call it to deliver now. */
  async runOnce(): Promise<PassResult> {
    const { result, attempts } = await this.pass();
    await Promise.all(attempts);
    return result;
  }

  /** Fans new events out, then starts attempts of due deliveries into this instance's free slots. */
  private async pass(): Promise<{ result: PassResult; attempts: Promise<void>[] }> {
    // An endpoint acts with its key's standing: a key revoked or expired since takes its endpoints down.
    await disableEndpointsOfLostKeys(this.deps.db, this.deps.now(), this.options.teams);
    await this.watchHookedTeams();
    const { created, more } = await fanOut(this.deps, this.options.teams);
    const now = this.deps.now();
    const claimed = await claimDueDeliveries(this.deps.db, {
      now,
      // Past the attempt's own deadline, with room to record it: only a dead instance's lease lapses.
      leaseUntil: new Date(now.getTime() + 2 * this.options.timeoutMs + 5_000),
      limit: this.options.concurrency - this.inFlight.size,
      caps: { perEndpoint: this.options.perEndpointConcurrency, perTeam: this.options.perTeamConcurrency },
      teams: this.options.teams,
    });
    const attempts = claimed.map((delivery) => this.track(this.attempt(delivery)));
    return { result: { created, attempted: claimed.length, more }, attempts };
  }

  /**
   * Keeps the commits of teams with endpoints announced (migration 031's lease, for twice the check interval
   * and more), looked up every WATCH_CHECK_MS: an endpoint made since is served by the poll until then.
   */
  private async watchHookedTeams(): Promise<void> {
    const wake = this.deps.wake;
    if (!wake?.listening || !this.running || Date.now() < this.nextWatchCheck) return;
    this.nextWatchCheck = Date.now() + WATCH_CHECK_MS;
    const seconds = Math.max(Math.ceil(wake.leaseMs / 1000), (4 * WATCH_CHECK_MS) / 1000);
    this.hooked = new Set(await watchWebhookTeams(this.deps.db, seconds, this.options.teams));
  }

  /** Holds a slot while the attempt runs; its end frees the slot and wakes the loop for what waits. */
  private track(attempt: Promise<void>): Promise<void> {
    const tracked: Promise<void> = attempt
      .catch((error: unknown) => this.onError(error))
      .finally(() => {
        this.inFlight.delete(tracked);
        if (this.running) this.schedule(0);
      });
    this.inFlight.add(tracked);
    return tracked;
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const started = this.deps.now();
    // Made when its key could read the record; a key that has lost the scope since must not have it sent.
    const missing = missingScopeForEvent(
      delivery.eventType,
      effectiveReadScopes(delivery.readScopes, delivery.keyScopes),
    );
    if (missing) {
      const reason = `Not sent: the API key the endpoint acts for no longer has ${missing}`;
      await dropDelivery(this.deps.db, delivery, reason, started);
      return;
    }
    const result = await postWebhook(
      {
        url: delivery.url,
        body: delivery.payload,
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'vsf-webhooks/1',
          'Vsf-Event-Id': delivery.eventId,
          'Vsf-Signature': signatureHeader(delivery.secret, delivery.payload, Math.floor(started.getTime() / 1000)),
        },
      },
      {
        timeoutMs: this.options.timeoutMs,
        allowHttpLoopback: this.options.allowHttpLoopback,
        resolve: this.deps.resolve,
        signal: this.stopping.signal,
      },
    );
    // Cut short by `stop`: not the receiver's failure. Given back, it is tried again at once, anywhere.
    if (this.stopping.signal.aborted && !result.ok) {
      await releaseLease(this.deps.db, delivery);
      return;
    }
    const now = this.deps.now();
    const firstAttemptAt = delivery.firstAttemptAt ?? started;
    const next = new Date(now.getTime() + retryDelayMs(delivery.attempts + 1, this.options));
    const exhausted = !result.ok && next.getTime() > firstAttemptAt.getTime() + this.options.retryWindowMs;
    const recorded = await recordAttempt(
      this.deps.db,
      delivery,
      {
        status: result.ok ? 'succeeded' : exhausted ? 'failed' : 'pending',
        responseStatus: result.status,
        error: result.error,
        nextAttemptAt: result.ok || exhausted ? null : next,
        firstAttemptAt,
      },
      now,
    );
    // A lapsed lease: another instance owns the delivery now and accounts for it.
    if (!recorded) return;
    const failures = await countEndpointAttempt(this.deps.db, delivery.webhookId, result.ok);
    if (result.ok) return;
    if (exhausted) {
      await disableEndpoint(
        this.deps.db,
        delivery.webhookId,
        `disabled after ${describeDuration(this.options.retryWindowMs)} of failed deliveries: last error ${result.error}`,
        now,
      );
    } else if (failures >= this.options.maxConsecutiveFailures) {
      await disableEndpoint(
        this.deps.db,
        delivery.webhookId,
        `disabled after ${failures} failed delivery attempts in a row: last error ${result.error}`,
        now,
      );
    }
  }
}
