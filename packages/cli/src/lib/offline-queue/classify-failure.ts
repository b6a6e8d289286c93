import { ConnectionError, TimeoutError, VsfError } from '@vsf/sdk';
import { CliError } from '../exit-codes.js';
import { CorruptCopyError } from './queue-store.js';

/**
 * `unreachable`: the API could not be reached (refused, reset, DNS, timeout) — the operation is queued.
 * `transient`: the server answered but may accept later (5xx, 408, 429) — a queued entry stays queued.
 * `permanent`: the server refused it for good (other 4xx), or the car or place no longer resolves — kept,
 * marked for the user's attention, never retried by itself.
 * `auth`: 401/403 — the key, not the entry, is the problem; the entry stays queued as it is.
 */
export type FailureKind = 'unreachable' | 'transient' | 'permanent' | 'auth';

export function classifyFailure(error: unknown): FailureKind {
  if (error instanceof ConnectionError || error instanceof TimeoutError) return 'unreachable';
  if (error instanceof VsfError && error.status !== undefined) {
    if (error.status === 401 || error.status === 403) return 'auth';
    if (error.status >= 500 || error.status === 408 || error.status === 429) return 'transient';
    // A 409 for a key still in flight on the server settles by itself.
    if ((error.details as { reason?: unknown } | null)?.reason === 'idempotency_in_flight') return 'transient';
    return 'permanent';
  }
  if (error instanceof CliError || error instanceof CorruptCopyError) return 'permanent';
  // Anything else (a bug, a local I/O error) is not the server's verdict: keep the entry as it is.
  return 'transient';
}

/** One line for `queue list` and notes: the server's message with its field details and status. */
export function failureMessage(error: unknown): string {
  if (error instanceof VsfError) {
    const details = Array.isArray(error.details)
      ? (error.details as { path?: string; message?: string }[])
          .map((d) => `${d.path || '(body)'}: ${d.message}`)
          .join('; ')
      : '';
    const status = error.status ? `HTTP ${error.status}: ` : '';
    const cause =
      error.cause instanceof Error && error.cause.message !== error.message ? ` (${causeText(error.cause)})` : '';
    return `${status}${error.message}${details ? ` — ${details}` : ''}${status ? '' : cause}`;
  }
  return (error as Error)?.message ?? String(error);
}

function causeText(error: Error): string {
  const inner = (error as { cause?: unknown }).cause;
  const code = (inner as { code?: string } | undefined)?.code;
  return code ? `${error.message}: ${code}` : error.message;
}
