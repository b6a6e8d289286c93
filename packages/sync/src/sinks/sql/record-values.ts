import type { ResourceSpec } from '../../resources.js';

/**
 * Writes one record's bindings into `into` from index `at`, in the upsert's column order (the
 * resource's columns, then `synced_at` and `synced_run`), and returns the index after them. Written in
 * place, so a page binds from one array instead of an array per record.
 */
export function writeRecordValues(
  into: unknown[],
  at: number,
  resource: ResourceSpec,
  record: Record<string, unknown>,
  sqlite: boolean,
  runId: string,
  now: string,
): number {
  let i = at;
  for (const c of resource.columns) {
    const value = record[c.field];
    if (value === undefined || value === null) into[i++] = null;
    else if (c.kind === 'json') into[i++] = JSON.stringify(value);
    else if (c.kind === 'boolean' && sqlite) into[i++] = value ? 1 : 0;
    else into[i++] = value;
  }
  into[i++] = now;
  into[i++] = runId;
  return i;
}
