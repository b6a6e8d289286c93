import type { ColumnKind } from '@vsf/contract';
import { describe, expect, it } from 'vitest';
import { RESOURCE_TABLES } from '../src/repositories/resource-tables.js';
import { useTestServer } from './support/test-server.js';

// Every column a table reads and writes (the record schema's, through recordColumns) exists after the
// migrations, with a type that holds the field: on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
const HOLDS: Record<ColumnKind, readonly string[]> = {
  text: ['text', 'character varying', 'uuid'],
  integer: ['integer', 'bigint', 'smallint'],
  number: ['integer', 'bigint', 'numeric', 'double precision', 'real'],
  boolean: ['boolean'],
  timestamp: ['timestamp with time zone'],
  json: ['jsonb', 'json'],
};

const suite = useTestServer();

describe('migrations', () => {
  it('create every column of every team table, with a type that holds its field', async () => {
    const rows: { table_name: string; column_name: string; data_type: string }[] = await suite.server.db
      .select('table_name', 'column_name', 'data_type')
      .from('information_schema.columns')
      .whereRaw('table_schema = current_schema()');
    const types = new Map(rows.map((r) => [`${r.table_name}.${r.column_name}`, r.data_type]));
    const tables = [...new Set(Object.values(RESOURCE_TABLES))];
    const problems: string[] = [];
    let checked = 0;
    for (const table of tables) {
      for (const { field, column, kind } of table.columns) {
        const type = types.get(`${table.table}.${column}`);
        checked++;
        if (!type) problems.push(`${table.table}.${column} (${field}) is missing`);
        else if (!HOLDS[kind].includes(type)) problems.push(`${table.table}.${column} is ${type}, not a ${kind}`);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(250);
  });
});
