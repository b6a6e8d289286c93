import { createHash } from 'node:crypto';
import type { ResourceSpec } from '../resources.js';

/** JSON with object keys sorted at every level, so equal values always give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value as Record<string, unknown>)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}

/**
 * A record reduced to the resource's contract fields, each in canonical JSON: what the server returned
 * and what the mirror stores compare equal exactly when a sync would have nothing to change. Fields the
 * contract does not know (a newer server's) are not mirrored, so they are not compared either.
 */
export function canonicalFields(resource: ResourceSpec, record: Record<string, unknown>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const column of resource.columns) fields[column.field] = canonicalJson(record[column.field] ?? null);
  return fields;
}

/** Digest of some records' canonical fields, in the order given (`null` for a record that is absent). */
export function digest(records: (Record<string, string> | null)[]): string {
  const hash = createHash('sha256');
  for (const record of records) hash.update(record ? canonicalJson(record) : 'absent').update('\n');
  return hash.digest('hex');
}
