import { withinDeadline } from './attempt-deadline.js';

/** A response, and its body as text unless the caller keeps the body to read itself. */
export interface Exchange {
  response: Response;
  text?: string;
}

/** Node (and browsers) fire a longer timer at once; ky refuses one with this message, so do we. */
const MAX_TIMER_MS = 2_147_483_647;

/** An attempt's limits: `ms` for all of it, `responseMs` for its response headers (at most `ms`). */
export interface AttemptLimits {
  ms: number;
  responseMs: number;
}

/**
 * One body-less attempt (every GET and DELETE): the caller's `fetch` called with the URL and a plain init,
 * as ky calls it but without the `Request` ky builds, clones for retries of its own (the SDK retries with
 * p-retry) and hands to `fetch` to be copied again: ~190 µs a call, more than the rest of the call's
 * client-side cost together. One timer covers the response and its body: past `ms` the request is aborted
 * and the attempt fails with `AttemptTimeout`, even if `fetchImpl` ignores the abort; a second one, past
 * `responseMs` without response headers, does the same, so a dead link is noticed in seconds, not a minute. The caller's `signal`
 * aborts the request as it did through ky (and a body kept unread after it).
 */
export function exchangeWithin(
  fetchImpl: typeof fetch,
  url: string,
  init: { method: string; headers: Record<string, string> },
  { ms, responseMs }: AttemptLimits,
  signal: AbortSignal | undefined,
  keepsBody: (response: Response) => boolean,
): Promise<Exchange> {
  if (ms > MAX_TIMER_MS) {
    return Promise.reject(new RangeError(`The \`timeout\` option cannot be greater than ${MAX_TIMER_MS}`));
  }
  if (signal?.aborted) return Promise.reject(signal.reason);
  const controller = new AbortController();
  let fetched: Promise<Response>;
  try {
    // Node's fetch writes the request before returning: the timer and listeners below are set up while the
    // server works, not before it can start.
    fetched = fetchImpl(url, {
      method: init.method,
      headers: init.headers,
      signal: signal ? AbortSignal.any([signal, controller.signal]) : controller.signal,
    });
  } catch (error) {
    return Promise.reject(error);
  }
  return withinDeadline(
    async (seen) => {
      const answer =
        responseMs < ms
          ? await withinDeadline(
              () => fetched,
              responseMs,
              undefined,
              () => controller.abort(),
              'response',
            )
          : await fetched;
      seen(answer);
      return keepsBody(answer) ? { response: answer } : { response: answer, text: await answer.text() };
    },
    ms,
    signal,
    () => controller.abort(),
  );
}
