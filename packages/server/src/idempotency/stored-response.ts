/**
 * What an idempotent request's stored response is, when it is not the answer itself: an answer that
 * carries a secret shown once (a webhook's signing secret) registers a copy without it, so the secret is
 * never written to `idempotency_keys` and a replay (the same Idempotency-Key) cannot show it again.
 * Keyed by the body object the handler returns, so nothing else in the request path has to carry it.
 */
const storedInstead = new WeakMap<object, unknown>();

/** Store `stored` rather than `body` if `body` is an idempotent request's answer. Returns `body`. */
export function storeInsteadOf<T extends object>(body: T, stored: unknown): T {
  storedInstead.set(body, stored);
  return body;
}

/** The body to store for an answer: what its handler registered, or the answer itself. */
export function bodyToStore(body: unknown): unknown {
  return typeof body === 'object' && body !== null && storedInstead.has(body) ? storedInstead.get(body) : body;
}
