/**
 * A JSON value with every object's keys in sorted order, arrays kept in theirs: two bodies that differ
 * only in key order become the same text under `JSON.stringify`, which is what makes two requests "the
 * same" for an idempotency key (the server's fingerprint, and the mock's in `@vsf/testing`).
 */
export function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}
