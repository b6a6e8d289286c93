import { classifyFailure } from './classify-failure.js';

export interface RetryOptions {
  /** Retries of one request in a row; when they are spent the run stops. Default 6. */
  maxRetries?: number | undefined;
  /** Backoff before the first retry of a request; it doubles with each retry, with jitter. Default 500 ms. */
  baseDelayMs?: number | undefined;
  /** Longest backoff between two tries. Default 30 000 ms. */
  maxDelayMs?: number | undefined;
  /**
   * Retries for the whole run, shared by every resource: each retry spends one, each page fetched at
   * the first try earns half of one back (never above the start). Default 5 × `maxRetries`.
   */
  runBudget?: number | undefined;
}

export const DEFAULT_MAX_RETRIES = 6;
export const DEFAULT_BASE_DELAY_MS = 500;
export const DEFAULT_MAX_DELAY_MS = 30_000;
/** A server asking to wait longer than this (`Retry-After`) is not waited for: the run stops. */
export const MAX_RETRY_AFTER_MS = 120_000;

export interface RetrySummary {
  /** Retries spent by the run. */
  total: number;
  /** Retries by what caused them: `connection reset`, `HTTP 503`, `HTTP 429`, `timeout`, … */
  reasons: Record<string, number>;
  /** Retries left of the run's budget when it ended. */
  budgetLeft: number;
}

/**
 * Why a run was stopped: nothing answers, retries ran out, the server asked to wait too long, the key was
 * refused, the key reads another team than the mirror holds.
 */
export type StopReason = 'unreachable' | 'retries-spent' | 'retry-after-too-long' | 'key-refused' | 'team-mismatch';

/**
 * Ends a run at once: the server cannot be reached, it keeps failing past the retry budget, or every page
 * would be refused the same way.
 */
export class SyncAbortedError extends Error {
  constructor(
    message: string,
    readonly reason: StopReason,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SyncAbortedError';
  }
}

/**
 * The retry budget of one sync run. Every page request goes through `attempt`, which retries blips
 * with backoff (or what `Retry-After` asks) and ends the whole run — every resource, not just the one
 * asking — when retrying cannot help: nothing answers at the address on the run's first requests, one
 * request failed `maxRetries` times in a row, or the run's budget is spent. A cron job against a
 * server that is down then fails in a second with one clear message, instead of retrying every
 * resource in turn.
 */
export class RunRetries {
  readonly maxRetries: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly budgetCap: number;
  private budget: number;
  private answered = false;
  private readonly controller = new AbortController();
  readonly summary: RetrySummary;

  constructor(
    options: RetryOptions = {},
    /** Where the pages come from, for messages (`http://…/api/v1`). */
    private readonly url = 'the server',
    private readonly random = Math.random,
  ) {
    this.maxRetries = wholeNumber(options.maxRetries ?? DEFAULT_MAX_RETRIES, 'maxRetries');
    this.baseDelayMs = Math.max(
      0,
      options.baseDelayMs ?? Math.min(DEFAULT_BASE_DELAY_MS, options.maxDelayMs ?? Infinity),
    );
    this.maxDelayMs = Math.max(0, options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS);
    this.budgetCap = wholeNumber(options.runBudget ?? 5 * this.maxRetries, 'runBudget');
    this.budget = this.budgetCap;
    this.summary = { total: 0, reasons: {}, budgetLeft: this.budget };
  }

  /** Aborted when the run is over; in-flight requests and backoffs end with it. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Why the run was ended, if it was. */
  get abortReason(): SyncAbortedError | undefined {
    return this.signal.aborted ? (this.signal.reason as SyncAbortedError) : undefined;
  }

  abort(error: SyncAbortedError): never {
    if (!this.signal.aborted) this.controller.abort(error);
    throw this.signal.reason;
  }

  /** Runs `request` until it succeeds, it fails for good, or the run is ended. */
  async attempt<T>(what: string, request: (signal: AbortSignal) => Promise<T>, onRetry?: () => void): Promise<T> {
    for (let retry = 0; ; retry++) {
      if (this.abortReason) throw this.abortReason;
      try {
        const result = await request(this.signal);
        this.answered = true;
        if (retry === 0) this.budget = Math.min(this.budgetCap, this.budget + 0.5);
        this.summary.budgetLeft = Math.floor(this.budget);
        return result;
      } catch (error) {
        if (this.abortReason) throw this.abortReason;
        const failure = classifyFailure(error);
        if (failure.reason.startsWith('HTTP ')) this.answered = true;
        if (failure.kind === 'fail') throw error;
        if (failure.kind === 'fatal')
          this.abort(new SyncAbortedError((error as Error).message, 'key-refused', { cause: error }));
        if (failure.kind === 'unreachable' && !this.answered) {
          const hint = failure.connection === 'refused' ? 'is the server running?' : 'check the base URL (--base-url)';
          this.abort(
            new SyncAbortedError(`cannot reach ${this.url}: ${failure.reason} — ${hint}`, 'unreachable', {
              cause: error,
            }),
          );
        }
        const resume = 'the next run resumes where this one stopped';
        if (retry >= this.maxRetries) {
          this.abort(
            new SyncAbortedError(
              `${what} failed ${retry + 1} times in a row (last: ${failure.reason}) at ${this.url}; stopped the run — ${resume}`,
              'retries-spent',
              { cause: error },
            ),
          );
        }
        if (this.budget < 1) {
          this.abort(
            new SyncAbortedError(
              `the run's retry budget is spent (${this.summary.total} retries; last: ${failure.reason} on ${what}); stopped the run — ${resume}`,
              'retries-spent',
              { cause: error },
            ),
          );
        }
        if (failure.retryAfterMs !== undefined && failure.retryAfterMs > MAX_RETRY_AFTER_MS) {
          this.abort(
            new SyncAbortedError(
              `${this.url} asked to wait ${Math.round(failure.retryAfterMs / 1000)} s before ${what} (Retry-After, ${failure.reason}); stopped the run — ${resume}`,
              'retry-after-too-long',
              { cause: error },
            ),
          );
        }
        this.budget -= 1;
        this.summary.total += 1;
        this.summary.reasons[failure.reason] = (this.summary.reasons[failure.reason] ?? 0) + 1;
        this.summary.budgetLeft = Math.floor(this.budget);
        onRetry?.();
        await sleep(failure.retryAfterMs ?? this.backoffMs(retry + 1), this.signal).catch(() => {});
      }
    }
  }

  /** Exponential from `baseDelayMs`, capped at `maxDelayMs`, with jitter over its upper half. */
  private backoffMs(retry: number): number {
    const ceiling = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (retry - 1));
    return ceiling / 2 + this.random() * (ceiling / 2);
  }
}

function wholeNumber(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number ≥ 0, got ${value}`);
  return value;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const id = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(id);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
