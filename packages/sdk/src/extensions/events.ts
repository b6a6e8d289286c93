import { APIResource } from '../core/api-resource.js';
import type { RequestOptions } from '../core/client-options.js';
import { ConnectionError, InternalServerError, RateLimitError, TimeoutError, VsfError } from '../core/errors.js';
import { apiEndpoints } from '../generated/api-endpoints.js';
import type { V1Event, V1EventListParams, V1EventsPage } from '../generated/types.js';

/** The longest wait the spec'd feed allows; a follower asks for it so an idle feed costs one request per 25 s. */
const FOLLOW_WAIT_SECONDS = 25;
const MAX_BACKOFF_MS = 30_000;

export interface FollowOptions extends Omit<RequestOptions, 'timeout'> {
  /** Called before each wait after a failed request (the server restarting, the network gone). */
  onRetry?: ((error: VsfError, delayMs: number) => void) | undefined;
}

type FollowQuery = Omit<V1EventListParams, 'wait'>;

/** Hand-written beside the generated `list`: an async iterator that follows the feed as it grows. */
export class EventsResourceExtension extends APIResource {
  /**
   * Yields every event after `after` (the feed's oldest kept event without it), then waits for the next
   * ones with a long poll and yields them as they commit, until `signal` aborts or the loop is left.
   * Failures the next request may not have (connection lost, timeouts, 5xx, 429) are retried with backoff
   * for as long as it takes; a 410 (`after` older than the server keeps) and auth errors are thrown.
   * Each event carries its `cursor`: store the last one handled and pass it as `after` to resume.
   */
  async *follow(query: FollowQuery = {}, options: FollowOptions = {}): AsyncGenerator<V1Event, void, undefined> {
    let after = query.after;
    let failures = 0;
    const { onRetry, ...requestOptions } = options;
    while (!options.signal?.aborted) {
      let page: V1EventsPage;
      try {
        page = await this._client.requestBody<V1EventsPage>(
          apiEndpoints.listEvents,
          { query: { ...query, ...(after === undefined ? {} : { after }), wait: FOLLOW_WAIT_SECONDS } },
          // The request's own timeout must outlast the server's wait.
          { ...requestOptions, timeout: (FOLLOW_WAIT_SECONDS + 15) * 1000 },
        );
      } catch (error) {
        if (options.signal?.aborted) return;
        if (!(error instanceof VsfError) || !transient(error)) throw error;
        const delayMs = Math.min(MAX_BACKOFF_MS, 500 * 2 ** failures++) * (0.5 + Math.random() / 2);
        onRetry?.(error, delayMs);
        await sleep(delayMs, options.signal);
        continue;
      }
      failures = 0;
      for (const event of page.data) yield event;
      after = page.nextCursor;
    }
  }
}

function transient(error: VsfError): boolean {
  return (
    error instanceof ConnectionError ||
    error instanceof TimeoutError ||
    error instanceof InternalServerError ||
    error instanceof RateLimitError
  );
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
