import {
  AuthenticationError,
  ConnectionError,
  type ConnectionFailureKind,
  InternalServerError,
  parseRetryAfterMs,
  RateLimitError,
  TimeoutError,
  VsfError,
} from '@vsf/sdk';

/**
 * What a failed page request means for the run:
 * - `retry`: a blip (reset, timeout, 408, 429, 5xx); try the request again after a backoff.
 * - `unreachable`: nothing answers at the address (refused, no such host, a port fetch will not use). Fatal when the run has had
 *   no answer yet, since then the server is down or the URL is wrong; later in a run it is retried as
 *   a restart would look the same for a few seconds.
 * - `fatal`: every other request of the run would fail the same way (the key was refused).
 * - `fail`: this resource cannot be synced (a 400, 403 for a missing scope, a bug); the others go on.
 */
export type FailureKind = 'retry' | 'unreachable' | 'fatal' | 'fail';

export interface ClassifiedFailure {
  kind: FailureKind;
  /** Short, countable: `connection reset`, `HTTP 503`, `timeout`, … */
  reason: string;
  /** Milliseconds the server asked to wait (`Retry-After`), if it did. */
  retryAfterMs?: number | undefined;
  /** For a request that got no response: what kind of connection failure (the SDK's). */
  connection?: ConnectionFailureKind | undefined;
}

/**
 * Connection failures that mean nothing answers at the address: the server is down, the host name or the
 * port is wrong. The kinds and their words are the SDK's, so `vsf sync` and every other `vsf` command say
 * the same thing on every runtime (`connection refused`, never a bare "connection failed").
 */
const UNREACHABLE: ReadonlySet<ConnectionFailureKind> = new Set(['refused', 'host_not_found', 'port_blocked']);

export function classifyFailure(error: unknown): ClassifiedFailure {
  if (error instanceof TimeoutError) return { kind: 'retry', reason: 'timeout' };
  if (error instanceof ConnectionError) {
    const connection = error.kind;
    return { kind: UNREACHABLE.has(connection) ? 'unreachable' : 'retry', reason: error.reason, connection };
  }
  if (error instanceof AuthenticationError) return { kind: 'fatal', reason: `HTTP ${error.status}` };
  if (error instanceof VsfError && error.status !== undefined) {
    const status = error.status;
    if (error instanceof RateLimitError || error instanceof InternalServerError || status === 408) {
      return { kind: 'retry', reason: `HTTP ${status}`, retryAfterMs: retryAfterMs(error) };
    }
    return { kind: 'fail', reason: `HTTP ${status}` };
  }
  return { kind: 'fail', reason: 'error' };
}

function retryAfterMs(error: VsfError): number | undefined {
  return parseRetryAfterMs(error.headers?.get('retry-after') ?? null);
}
