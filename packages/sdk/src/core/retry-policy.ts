import {
  ConflictError,
  ConnectionError,
  InternalServerError,
  parseRetryAfterMs,
  RateLimitError,
  TimeoutError,
  type VsfError,
} from './errors.js';

export const DEFAULT_MAX_RETRIES = 2;
const BASE_DELAY_MS = 500;
const MAX_BACKOFF_MS = 8_000;
/** A server asking for longer than this is not waited for: the error goes to the caller instead. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Retried: connection failures, timeouts, 408, 429, 5xx, and a 409 saying the same idempotency key is
 * still being processed. Never 400, 401, 403, 404 or other 409s, nor a port fetch refuses to connect to
 * (the Fetch standard's bad ports): repeating them cannot succeed.
 */
export function isRetryable(error: VsfError): boolean {
  if (error instanceof ConnectionError) return error.kind !== 'port_blocked';
  if (error instanceof TimeoutError) return true;
  if (error instanceof RateLimitError || error instanceof InternalServerError) return true;
  if (error.status === 408) return true;
  if (error instanceof ConflictError) {
    return (error.details as { reason?: unknown } | null)?.reason === 'idempotency_in_flight';
  }
  return false;
}

/**
 * Delay before retry number `retry` (1-based): the server's `Retry-After` when it gives one (up to a
 * minute), else exponential backoff from 0.5 s with full jitter, capped at 8 s.
 */
export function retryDelayMs(retry: number, error: VsfError, random = Math.random): number | undefined {
  const retryAfter = parseRetryAfterMs(error.headers?.get('retry-after') ?? null);
  if (retryAfter !== undefined) return retryAfter > MAX_RETRY_AFTER_MS ? undefined : retryAfter;
  const ceiling = Math.min(MAX_BACKOFF_MS, BASE_DELAY_MS * 2 ** (retry - 1));
  return ceiling / 2 + random() * (ceiling / 2);
}
