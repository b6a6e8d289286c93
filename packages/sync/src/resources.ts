import { apiEndpoints, type EndpointDefinition } from '@vsf/contract';
import type { z } from 'zod';
import { SyncUsageError } from './errors.js';

export type ColumnKind = 'text' | 'integer' | 'number' | 'boolean' | 'timestamp' | 'json';

export interface ColumnSpec {
  /** API field name (camelCase). */
  field: string;
  /** SQL column name (snake_case). */
  column: string;
  kind: ColumnKind;
}

export interface ResourceSpec {
  /** `cars`, `event_types`, `marketing_campaigns`: also the table name. */
  name: string;
  endpoint: EndpointDefinition;
  columns: ColumnSpec[];
  /** Soft deletes arrive as rows with `deletedAt` when the list is asked for them. */
  includeDeleted: boolean;
}

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema as unknown as { _zod: { def: { type: string; innerType?: z.ZodType; in?: z.ZodType } } };
  for (;;) {
    const def = current._zod.def;
    if ((def.type === 'nullable' || def.type === 'optional' || def.type === 'default') && def.innerType) {
      current = def.innerType as unknown as typeof current;
    } else if (def.type === 'pipe' && def.in) current = def.in as unknown as typeof current;
    else return current as unknown as z.ZodType;
  }
}

/** SQL kind of an API field, read off its zod schema. */
export function columnKind(schema: z.ZodType): ColumnKind {
  const inner = unwrap(schema) as unknown as { _zod: { def: { type: string; format?: string; checks?: unknown[] } } };
  const def = inner._zod.def;
  if (def.type === 'boolean') return 'boolean';
  if (def.type === 'number') {
    const integer = (inner as unknown as { isInt?: boolean }).isInt || def.format === 'safeint';
    return integer ? 'integer' : 'number';
  }
  if (def.type === 'string' && def.format === 'datetime') return 'timestamp';
  if (def.type === 'string' || def.type === 'enum' || def.type === 'literal') return 'text';
  return 'json';
}

function recordSchema(endpoint: EndpointDefinition): z.ZodObject {
  const shape = (endpoint.response.schema as z.ZodObject).shape as Record<string, z.ZodType>;
  const data = unwrap(shape.data as z.ZodType) as unknown as { _zod: { def: { element: z.ZodType } } };
  return unwrap(data._zod.def.element) as z.ZodObject;
}

/**
 * Every list endpoint the contract declares that can be synced: paginated, no path parameters, and
 * an `updatedAfter` filter. New endpoints become syncable without touching this package.
 */
export function syncableResources(endpoints: Record<string, EndpointDefinition> = apiEndpoints): ResourceSpec[] {
  return Object.values(endpoints)
    .filter(
      (e) =>
        e.paginated && e.method === 'get' && !e.path.includes('{') && e.query?.shape && 'updatedAfter' in e.query.shape,
    )
    .map((endpoint) => {
      const shape = recordSchema(endpoint).shape as Record<string, z.ZodType>;
      return {
        name: endpoint.path.replace(/^\//, '').replace(/[/-]/g, '_'),
        endpoint,
        columns: Object.entries(shape).map(([field, schema]) => ({
          field,
          column: snake(field),
          kind: columnKind(schema),
        })),
        includeDeleted: Boolean(endpoint.query && 'includeDeleted' in endpoint.query.shape),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
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
