/**
 * How many different ids `records` hold: a page repeats one only when its list moved while it was read.
 * A sorted copy of the ids rather than a Set: the Set's hash table, rebuilt as it grew, was ~3 % of what
 * a 100k-car sync allocated, and every page made one.
 */
export function distinctIdCount(records: readonly Record<string, unknown>[]): number {
  if (records.length < 2) return records.length;
  const ids = records.map((r) => String(r.id)).sort();
  let count = 1;
  for (let i = 1; i < ids.length; i++) if (ids[i] !== ids[i - 1]) count++;
  return count;
}

/** Each id once, where it first appears, holding its last version (the newest a page read of it). */
export function lastOfEachId(records: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return [...new Map(records.map((r) => [String(r.id), r])).values()];
}
