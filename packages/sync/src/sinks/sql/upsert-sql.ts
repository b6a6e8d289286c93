import type { ResourceSpec } from '../../resources.js';
import { quote } from './sql-connection.js';

/** A mirror table's columns, in the order every statement binds them: the API's fields, then the run's. */
export const mirrorColumns = (resource: ResourceSpec): string[] => [
  ...resource.columns.map((c) => c.column),
  'synced_at',
  'synced_run',
];

/**
 * The `on conflict` clause of a mirror upsert. A stored record is replaced only when the incoming one is
 * not older; either way it is marked seen by this run (`synced_run`), which is what pruning compares.
 */
export function onConflictUpdate(resource: ResourceSpec): string {
  const table = quote(resource.name);
  const hasUpdatedAt = resource.columns.some((c) => c.column === 'updated_at');
  const newer = `${table}."updated_at" is null or excluded."updated_at" >= ${table}."updated_at"`;
  const assignments = mirrorColumns(resource)
    .filter((c) => c !== 'id')
    .map((c) =>
      !hasUpdatedAt || c === 'synced_at' || c === 'synced_run'
        ? `${quote(c)} = excluded.${quote(c)}`
        : `${quote(c)} = case when ${newer} then excluded.${quote(c)} else ${table}.${quote(c)} end`,
    );
  return `on conflict ("id") do update set ${assignments.join(', ')}`;
}

/** `insert` of `rows` records' bindings, upserting by id, or (`upsert: false`) plain for a table still loading. */
export function insertValuesSql(resource: ResourceSpec, rows: number, upsert = true): string {
  const columns = mirrorColumns(resource);
  const placeholders = `(${columns.map(() => '?').join(', ')})`;
  const insert = `insert into ${quote(resource.name)} (${columns.map(quote).join(', ')}) values ${Array(rows).fill(placeholders).join(', ')}`;
  return upsert ? `${insert} ${onConflictUpdate(resource)}` : insert;
}
