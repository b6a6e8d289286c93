import { columnKindOf, type Field, type JsonSchema, snakeCase, standardResources } from '@vsf/contract';
import type { Knex } from 'knex';
import { z } from 'zod';
import { ts } from './team-table.js';

/** What a migration needs of a resource declared with a field table (`defineResource` gives all three). */
export interface DeclaredResource {
  readonly table: string;
  readonly record: z.ZodType;
  readonly fields: Readonly<Record<string, Field>> | undefined;
}

function fieldsOf(resource: DeclaredResource): Readonly<Record<string, Field>> {
  if (!resource.fields) throw new Error(`${resource.table}: declared without a field table; write its columns by hand`);
  return resource.fields;
}

/** The record's JSON Schema of one field, nullability apart: its kind, and `uuid` or `int64` formats. */
function recordSchemaOf(resource: DeclaredResource, name: string): { schema: JsonSchema; nullable: boolean } {
  const shape = (resource.record as z.ZodObject).shape;
  const json = z.toJSONSchema(shape[name] as z.ZodType, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
  const nullable = (json.anyOf ?? [json]).some(
    (s) => s.type === 'null' || (Array.isArray(s.type) && s.type.includes('null')),
  );
  return { schema: json.anyOf?.find((s) => s.type !== 'null') ?? json, nullable };
}

/** The table a reference points to (`customers` → `customers`, `parking.zones` → `parking_zones`). */
function referencedTable(namespace: string): string {
  const target = standardResources().get(namespace);
  if (!target) throw new Error(`A reference points to "${namespace}", which the contract does not declare`);
  return target.tableName;
}

/** One column of a declared field: its type from the record, null only where the field is, its default and reference. */
function addColumn(t: Knex.CreateTableBuilder, resource: DeclaredResource, name: string, field: Field): void {
  const column = snakeCase(name);
  const { schema, nullable } = recordSchemaOf(resource, name);
  const kind = columnKindOf(schema);
  const builder =
    kind === 'timestamp'
      ? ts(t, column)
      : kind === 'integer'
        ? schema.format === 'int64'
          ? t.bigInteger(column)
          : t.integer(column)
        : kind === 'number'
          ? t.double(column)
          : kind === 'boolean'
            ? t.boolean(column)
            : kind === 'json'
              ? t.jsonb(column)
              : schema.format === 'uuid'
                ? t.uuid(column)
                : t.text(column);
  const { default: stored, references, filter } = field.options;
  if (!nullable) builder.notNullable();
  if (stored !== undefined) builder.defaultTo(stored);
  if (references) builder.references(`${referencedTable(references)}.id`);
  if (references || filter) t.index(['team_id', column], `${resource.table}_${column}_idx`);
}

/**
 * The columns of a declared resource's fields, in declaration order, for `createResourceTable`: the id,
 * team and timestamps come from the table's shape, everything else from the declaration.
 */
export function declaredColumns(resource: DeclaredResource, only?: readonly string[]) {
  const fields = fieldsOf(resource);
  return (t: Knex.CreateTableBuilder) => {
    for (const [name, field] of Object.entries(fields)) {
      if (name === 'teamId' || (only && !only.includes(name))) continue;
      addColumn(t, resource, name, field);
    }
  };
}

/**
 * Adds fields declared after the resource's table was created, each only where it is missing: on a new
 * database the creating migration already made them from today's declaration, on an older one this adds
 * them, so both end with the same columns.
 */
export async function addResourceColumns(knex: Knex, resource: DeclaredResource, ...names: string[]): Promise<void> {
  const fields = fieldsOf(resource);
  const missing: string[] = [];
  for (const name of names) {
    if (!fields[name]) throw new Error(`${resource.table}: no field "${name}" is declared`);
    if (!(await knex.schema.hasColumn(resource.table, snakeCase(name)))) missing.push(name);
  }
  if (missing.length > 0) await knex.schema.alterTable(resource.table, declaredColumns(resource, missing));
}
