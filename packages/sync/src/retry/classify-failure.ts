import {
  AuthenticationError,
  ConnectionError,
  InternalServerError,
  parseRetryAfterMs,
  RateLimitError,
  TimeoutError,
  VsfError,
} from '@vsf/sdk';

/**
 * What a failed page request means for the run:
 * - `retry`: a blip (reset, timeout, 408, 429, 5xx); try the request again after a backoff.
 * - `unreachable`: nothing answers at the address (refused, no such host). Fatal when the run has had
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
}

const NETWORK_REASONS: Record<string, { reason: string; kind: FailureKind }> = {
  ECONNREFUSED: { reason: 'connection refused', kind: 'unreachable' },
  ENOTFOUND: { reason: 'host not found', kind: 'unreachable' },
  EAI_AGAIN: { reason: 'host lookup failed', kind: 'retry' },
  ECONNRESET: { reason: 'connection reset', kind: 'retry' },
  EPIPE: { reason: 'connection reset', kind: 'retry' },
  UND_ERR_SOCKET: { reason: 'connection reset', kind: 'retry' },
  ETIMEDOUT: { reason: 'timeout', kind: 'retry' },
  UND_ERR_CONNECT_TIMEOUT: { reason: 'timeout', kind: 'retry' },
  EHOSTUNREACH: { reason: 'host unreachable', kind: 'retry' },
  ENETUNREACH: { reason: 'network unreachable', kind: 'retry' },
};

/** The first Node/undici error code in an error's cause chain (fetch wraps them: `fetch failed` ← cause). */
export function networkErrorCode(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  for (let current = error; current && typeof current === 'object' && !seen.has(current); ) {
    seen.add(current);
    const { code, errors, cause } = current as { code?: unknown; errors?: unknown[]; cause?: unknown };
    if (typeof code === 'string' && NETWORK_REASONS[code]) return code;
    // Node's happy-eyeballs connect throws an AggregateError of one error per address tried.
    const inner = errors?.map(networkErrorCode).find(Boolean);
    if (inner) return inner;
    current = cause;
  }
  return undefined;
}

export function classifyFailure(error: unknown): ClassifiedFailure {
  if (error instanceof TimeoutError) return { kind: 'retry', reason: 'timeout' };
  if (error instanceof ConnectionError) {
    const code = networkErrorCode(error);
    return code ? (NETWORK_REASONS[code] as ClassifiedFailure) : { kind: 'retry', reason: 'connection failed' };
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
