import { withinDeadline } from './attempt-deadline.js';
import { AttemptTimeout } from './attempt-timeout.js';

/**
 * Reads the body, giving up after `ms` (what is left of the call's timeout) or when `signal` aborts, even if
 * the fetch implementation would keep reading.
 */
export function readBody(response: Response, ms: number, signal: AbortSignal | undefined): Promise<string> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (ms <= 0) return Promise.reject(new AttemptTimeout());
  return withinDeadline(
    (seen) => {
      seen(response);
      return response.text();
    },
    ms,
    signal,
  );
}
