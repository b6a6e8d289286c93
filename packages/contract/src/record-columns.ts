import type { JsonSchema } from './json-schema.js';
import { z } from './zod.js';

/** How a record field is stored in a SQL column: the server's tables and the sync's mirrors read the same. */
export type ColumnKind = 'text' | 'integer' | 'number' | 'boolean' | 'timestamp' | 'json';

export interface RecordColumn {
  /** The API field (camelCase). */
  readonly field: string;
  /** The SQL column (snake_case). */
  readonly column: string;
  readonly kind: ColumnKind;
}

/** The one camelCase → snake_case rule of the API's fields and the database's columns. */
export const snakeCase = (field: string): string => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A field's kind, read off its JSON Schema: nullability aside, one scalar type is a column of that kind. */
export function columnKindOf(schema: JsonSchema): ColumnKind {
  const alternatives = (schema.anyOf ?? schema.oneOf ?? [schema]).filter((s) => s.type !== 'null');
  if (alternatives.length !== 1) return 'json';
  const only = alternatives[0] as JsonSchema;
  const types = (Array.isArray(only.type) ? only.type : [only.type]).filter((t) => t !== 'null');
  if (types.length !== 1) return only.enum || only.const !== undefined ? 'text' : 'json';
  switch (types[0]) {
    case 'boolean':
      return 'boolean';
    case 'integer':
      return 'integer';
    case 'number':
      return 'number';
    case 'string':
      return only.format === 'date-time' ? 'timestamp' : 'text';
    default:
      return 'json';
  }
}

/**
 * The columns of a record schema, in its field order, through zod's public JSON Schema output: what the
 * API answers is what a table stores and what a mirror holds.
 */
export function recordColumns(schema: z.ZodType): RecordColumn[] {
  const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as {
    properties?: Record<string, JsonSchema>;
  };
  if (!json.properties) throw new Error('recordColumns: the schema is not an object of fields');
  return Object.entries(json.properties).map(([field, property]) => ({
    field,
    column: snakeCase(field),
    kind: columnKindOf(property),
  }));
}
