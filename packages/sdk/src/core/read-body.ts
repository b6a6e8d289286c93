import { AttemptTimeout } from './attempt-timeout.js';

/**
 * Reads the body, giving up after `ms` (what is left of the call's timeout) or when `signal` aborts, even if
 * the fetch implementation would keep reading.
 */
export function readBody(response: Response, ms: number, signal: AbortSignal | undefined): Promise<string> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (ms <= 0) return Promise.reject(new AttemptTimeout());
  return new Promise((resolve, reject) => {
    const settle = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const stop = (reason: unknown) => {
      settle();
      response.body?.cancel().catch(() => {});
      reject(reason);
    };
    const onAbort = () => stop(signal?.reason);
    const timer = setTimeout(() => stop(new AttemptTimeout()), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
    response.text().then(
      (text) => {
        settle();
        resolve(text);
      },
      (error) => {
        settle();
        reject(error);
      },
    );
  });
}
