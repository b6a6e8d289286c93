import {
  type ClaimedDelivery,
  claimDueDeliveries,
  countEndpointAttempt,
  disableEndpoint,
  disableEndpointsOfLostKeys,
  dropDelivery,
  recordAttempt,
} from '../repositories/webhook-deliveries.js';
import { effectiveReadScopes, missingScopeForEvent } from './event-read-scopes.js';
import { postWebhook } from './post-webhook.js';
import { describeDuration, retryDelayMs } from './retry-schedule.js';
import { type FanOutDeps, fanOut } from './webhook-fan-out.js';
import type { WebhookOptions } from './webhook-options.js';
import { signatureHeader } from './webhook-signature.js';

export interface DispatcherDeps extends FanOutDeps {
  /** DNS for deliveries; the system resolver by default (tests stub it). */
  resolve?: ((hostname: string) => Promise<string[]>) | undefined;
}

export interface PassResult {
  /** Deliveries created from new events. */
  created: number;
  /** Delivery attempts made. */
  attempted: number;
  /** Events were left for the next pass (an endpoint far behind). */
  more: boolean;
}

/**
 * Delivers the team's events to their webhook endpoints, in every server instance: each pass fans new
 * events out into deliveries, then leases the due ones (one instance per delivery) and POSTs them signed.
 * A failed attempt is retried with backoff until the retry window after the first one has passed; then the
 * delivery is `failed` and its endpoint disabled, as it is after too many failed attempts in a row.
 */
export class WebhookDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<unknown> | undefined;
  private running = false;
  /** Bumped by every start: a pass of an earlier start that ends after a restart schedules nothing. */
  private generation = 0;

  constructor(
    private readonly deps: DispatcherDeps,
    private readonly options: WebhookOptions,
  ) {}

  /** Runs passes in the background until `stop`: at once while there is work, else every poll interval. */
  start(onError: (error: unknown) => void = () => {}): void {
    if (this.running) return;
    this.running = true;
    const generation = ++this.generation;
    const loop = (delay: number) => {
      this.timer = setTimeout(() => {
        const pass = this.runOnce().then(
          (result) => result.more || result.created + result.attempted > 0,
          (error: unknown) => {
            onError(error);
            return false;
          },
        );
        this.pass = pass;
        void pass.then((busy) => {
          if (this.running && generation === this.generation) loop(busy ? 0 : this.options.pollIntervalMs);
        });
      }, delay);
    };
    loop(0);
  }

  /** Stops the background passes; resolves once the one under way (its attempts at most a timeout) ends. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.pass;
  }

  /** One pass, as the background loop runs it; tests call it to deliver now. */
  async runOnce(): Promise<PassResult> {
    // An endpoint acts with its key's standing: a key revoked or expired since takes its endpoints down.
    await disableEndpointsOfLostKeys(this.deps.db, this.deps.now(), this.options.teams);
    const { created, more } = await fanOut(this.deps, this.options.teams);
    const now = this.deps.now();
    const claimed = await claimDueDeliveries(this.deps.db, {
      now,
      // Past the attempt's own deadline, with room to record it: only a dead instance's lease lapses.
      leaseUntil: new Date(now.getTime() + 2 * this.options.timeoutMs + 5_000),
      limit: this.options.batchSize,
      teams: this.options.teams,
    });
    await Promise.all(claimed.map((delivery) => this.attempt(delivery)));
    return { created, attempted: claimed.length, more };
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
      },
    );
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
