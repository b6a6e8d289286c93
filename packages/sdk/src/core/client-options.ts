import type { Logger, LogLevel } from './logger.js';

export interface ClientOptions {
  /** Defaults to `VSF_API_KEY`. */
  apiKey?: string | undefined;
  /** The API root including `/api/v1`; defaults to `VSF_BASE_URL`, else `http://localhost:3000/api/v1`. */
  baseUrl?: string | undefined;
  /**
   * Milliseconds for a whole attempt, sending the request and reading the response included. Default 60 000.
   * A call with a body gets, on top, the time to send its bytes at 8 KiB/s (~0.5 s a 4 KiB body, ~8.5 min a
   * 3 MiB photo as base64), so a slow uplink can still upload it; a call's own `timeout` gets none.
   */
  timeout?: number | undefined;
  /**
   * Milliseconds an attempt waits for the response headers: connecting, sending the request and the server's
   * answer. Default 10 000. A call with a body gets, on top, the time to send it at 8 KiB/s (as `timeout`
   * does). A link that accepts the connection and passes nothing is noticed after this long, not after
   * `timeout`, which keeps covering the whole attempt (reading a large response, or a photo's bytes).
   */
  responseTimeout?: number | undefined;
  /**
   * Called before each retry, with the failure and the wait: a terminal can say "waiting for network…"
   * while the retries' log lines stay at `info`.
   */
  onRetry?: ((notice: RetryNotice) => void) | undefined;
  /** Retries after the first attempt for retryable failures. Default 2; 0 disables retries. */
  maxRetries?: number | undefined;
  /** A `fetch` implementation (tests, proxies, other runtimes). Defaults to the global one. */
  fetch?: typeof fetch | undefined;
  /** Headers sent with every request. */
  headers?: Record<string, string> | undefined;
  /** Which of the two equivalent headers carries the key. Default `bearer`. */
  authHeader?: 'bearer' | 'x-api-key' | undefined;
  /** Default `VSF_LOG`, else `warn`. */
  logLevel?: LogLevel | undefined;
  logger?: Logger | undefined;
}

/** What `onRetry` is told: which call, which attempt failed and why, and how long until the next. */
export interface RetryNotice {
  method: string;
  url: string;
  /** The attempt that failed, 1-based. */
  attempt: number;
  delayMs: number;
  error: Error;
}

export interface RequestOptions {
  signal?: AbortSignal | undefined;
  /** Milliseconds for each attempt of this call, exactly: no allowance for sending the body is added. */
  timeout?: number | undefined;
  /**
   * Milliseconds for each attempt's response headers (see `ClientOptions.responseTimeout`). When a call gives
   * its own `timeout` and not this, the headers may take that long (a long poll waits for its answer).
   */
  responseTimeout?: number | undefined;
  maxRetries?: number | undefined;
  headers?: Record<string, string> | undefined;
  /** For POSTs: the key that makes retries safe. Generated when absent, and kept across retries. */
  idempotencyKey?: string | undefined;
}

/** Reads the environment without importing Node modules, so the core runs in any fetch runtime. */
export function env(name: string): string | undefined {
  const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
  return value?.trim() || undefined;
}
