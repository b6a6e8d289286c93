import { sortedKeys } from '@vsf/contract';
import { MockHttpError } from './mock-errors.js';

/** How long a stored response replays, as on the server. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export function validateIdempotencyKey(key: string): void {
  if (!KEY_PATTERN.test(key)) {
    throw new MockHttpError(400, 'validation_error', 'Validation failed', [
      { path: 'Idempotency-Key', message: 'Must be 1 to 255 printable ASCII characters without spaces' },
    ]);
  }
}

/** What makes two requests "the same": the query string and the body, key order aside (request-fingerprint.ts). */
export function fingerprint(query: string, body: unknown): string {
  return JSON.stringify([query, sortedKeys(body ?? null)]);
}
