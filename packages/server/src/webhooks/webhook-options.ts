import { WEBHOOK_MAX_CONSECUTIVE_FAILURES, WEBHOOK_RETRY_WINDOW_HOURS } from '@vsf/contract';

/** How webhook deliveries are made and retried; every timing is here so tests can run them in seconds. */
export interface WebhookOptions {
  /** Run the dispatcher in the background of this instance (tests that call `runOnce` turn it off). */
  dispatch: boolean;
  /** `VSF_WEBHOOK_ALLOW_HTTP_LOOPBACK`: also deliver to `http://127.0.0.1:<port>` (tests, local development). */
  allowHttpLoopback: boolean;
  /** Pause between the dispatcher's passes when the last one found nothing to do. */
  pollIntervalMs: number;
  /** The wait before the first retry; each later one doubles it, up to `maxBackoffMs`, with ±20% jitter. */
  baseBackoffMs: number;
  maxBackoffMs: number;
  /** One attempt's limit, from connecting to the response's status. */
  timeoutMs: number;
  /** How long after its first attempt a delivery is retried before it is `failed` and the endpoint disabled. */
  retryWindowMs: number;
  /** Failed attempts in a row that disable an endpoint. */
  maxConsecutiveFailures: number;
  /**
   * Attempts one instance has under way at once. Each holds its slot only until its own answer or timeout:
   * a pass starts attempts into the free slots and does not wait for them.
   */
  concurrency: number;
  /** Attempts under way at one endpoint, across instances: a receiver that never answers holds no more. */
  perEndpointConcurrency: number;
  /** Attempts under way for one team's endpoints together, across instances: its share of the dispatchers. */
  perTeamConcurrency: number;
  /**
   * Serve only these teams' endpoints (read at each pass); every team when absent. For tests that share a
   * PostgreSQL database with other suites, whose endpoints they must leave alone.
   */
  teams?: ReadonlySet<string> | undefined;
}

export const DEFAULT_WEBHOOK_OPTIONS: WebhookOptions = {
  dispatch: true,
  allowHttpLoopback: false,
  pollIntervalMs: 1_000,
  baseBackoffMs: 10_000,
  maxBackoffMs: 3_600_000,
  timeoutMs: 10_000,
  retryWindowMs: WEBHOOK_RETRY_WINDOW_HOURS * 3_600_000,
  maxConsecutiveFailures: WEBHOOK_MAX_CONSECUTIVE_FAILURES,
  concurrency: 32,
  perEndpointConcurrency: 4,
  perTeamConcurrency: 8,
};
