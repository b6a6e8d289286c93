import type { ColumnSpec } from '../../resource-spec.js';

/**
 * The SQL type of a mirror column, as the mirrors have always been made (by knex before): an existing
 * mirror and a new one have the same schema, so either is continued by the next run.
 */
export function columnType(kind: 'sqlite' | 'postgres', column: ColumnSpec): string {
  const pg = kind === 'postgres';
  switch (column.kind) {
    case 'integer':
      return 'bigint';
    case 'number':
      return pg ? 'double precision' : 'float';
    case 'boolean':
      return 'boolean';
    case 'timestamp':
      return pg ? 'timestamptz(3)' : 'text';
    case 'json':
      return pg ? 'jsonb' : 'text';
    default:
      return column.column === 'id' ? 'varchar(255)' : 'text';
  }
}
