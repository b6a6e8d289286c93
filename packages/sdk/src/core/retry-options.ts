import type { Options } from 'p-retry';
import type { RetryNotice } from './client-options.js';
import { VsfError } from './errors.js';
import type { Logger } from './logger.js';
import { isRetryable, retryDelayMs } from './retry-policy.js';

/**
 * What p-retry is told for one call: which failures are retried, and the wait before each retry, which is
 * ours (the server's Retry-After or jittered backoff), logged and slept in `onFailedAttempt`.
 */
export function retryOptions(
  log: Logger,
  method: string,
  url: string,
  signal: AbortSignal | undefined,
  onRetry?: (notice: RetryNotice) => void,
): Options {
  return {
    minTimeout: 0,
    maxTimeout: 0,
    factor: 1,
    randomize: false,
    shouldRetry: ({ error }) => error instanceof VsfError && isRetryable(error) && retryDelayMs(1, error) !== undefined,
    onFailedAttempt: async ({ error, attemptNumber, retriesLeft }) => {
      const decision = retryDecision(error, attemptNumber, retriesLeft);
      const fields = { attempt: attemptNumber, status: (error as VsfError).status, reason: error.message };
      if (decision.delay === undefined) {
        log.debug(`not retrying ${method} ${url}: ${decision.why}`, fields);
        return;
      }
      const delay = decision.delay;
      log.info(`retrying ${method} ${url} in ${Math.round(delay)} ms after: ${error.message}`, {
        ...fields,
        delayMs: Math.round(delay),
      });
      onRetry?.({ method, url, attempt: attemptNumber, delayMs: Math.round(delay), error });
      await sleep(delay, signal);
    },
  };
}

/** Whether a failed attempt is retried, and after how long; `why` says it for the debug log when not. */
function retryDecision(error: Error, attempt: number, retriesLeft: number): { delay?: number; why: string } {
  if (!(error instanceof VsfError) || !isRetryable(error)) return { why: 'the error is not retryable' };
  if (retriesLeft === 0) return { why: 'no retries left' };
  const delay = retryDelayMs(attempt, error);
  if (delay === undefined) return { why: 'the server asked to wait longer than 60 s' };
  return { delay, why: 'retryable' };
}

/**
 * Waits `ms`, or until `signal` aborts. The listener goes when the timer fires: one long-lived signal passed
 * to many calls would otherwise keep one listener (and its closure) per retry ever slept, and warn
 * `MaxListenersExceeded` past ten.
 */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(id);
      reject(signal?.reason);
    };
    const id = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
