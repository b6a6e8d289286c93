import { SyncUsageError } from './errors.js';
import { SYNCABLE_RESOURCES } from './generated/resources.js';
import type { ResourceSpec } from './resource-spec.js';

export type { ColumnKind, ColumnSpec, ListRoute, ResourceSpec } from './resource-spec.js';

/**
 * Every list endpoint the contract declares that can be synced: paginated, no path parameters, and an
 * `updatedAfter` filter. Read from a table generated from the contract (src/generated), so a sync loads
 * no schema at run time; a new endpoint becomes syncable with `pnpm generate`.
 */
export function syncableResources(): ResourceSpec[] {
  return [...SYNCABLE_RESOURCES];
}

export function selectResources(names: string[] | undefined, all = syncableResources()): ResourceSpec[] {
  if (!names || names.length === 0) return all;
  const unknown = names.filter((n) => !all.some((r) => r.name === n));
  if (unknown.length > 0) {
    throw new SyncUsageError(
      `Unknown resource(s): ${unknown.join(', ')}. Syncable: ${all.map((r) => r.name).join(', ')}`,
    );
  }
  return all.filter((r) => names.includes(r.name));
}
