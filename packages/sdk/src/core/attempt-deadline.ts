import { AttemptTimeout } from './attempt-timeout.js';

/**
 * Settles as `work` does, unless `ms` pass first (the attempt fails with `AttemptTimeout` of `phase`, after
 * `onTimeout`) or `signal` aborts (it fails with the signal's reason). Either way the response `work`
 * reported through `seen`, if any, has its body cancelled, so a fetch that would keep reading stops.
 * One timer and one listener for the whole attempt, removed as soon as it settles.
 */
export function withinDeadline<T>(
  work: (seen: (response: Response) => void) => Promise<T>,
  ms: number,
  signal: AbortSignal | undefined,
  onTimeout?: () => void,
  phase: AttemptTimeout['phase'] = 'attempt',
): Promise<T> {
  return new Promise((resolve, reject) => {
    let response: Response | undefined;
    const settle = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const stop = (reason: unknown) => {
      settle();
      response?.body?.cancel().catch(() => {});
      reject(reason);
    };
    const onAbort = () => stop(signal?.reason);
    const timer = setTimeout(() => {
      onTimeout?.();
      stop(new AttemptTimeout(phase, ms));
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
    work((seenResponse) => {
      response = seenResponse;
    }).then(
      (value) => {
        settle();
        resolve(value);
      },
      (error) => {
        settle();
        reject(error);
      },
    );
  });
}
