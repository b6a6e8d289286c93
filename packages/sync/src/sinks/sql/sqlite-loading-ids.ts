import type { ResourceSpec } from '../../resources.js';
import { quote, type SqlConnection } from './sql-connection.js';

/**
 * The ids of SQLite tables still loading without their id index (sqlite-id-index.ts), for reading them.
 * Without the index each lookup by id, and each keyset page of ids, scans the whole table: `verify` of an
 * interrupted first sync makes one of each per 200 records, so its time grew with the square of the
 * table. This connection keeps such a table's ids and rowids, sorted into an index, in a temporary table
 * of its own (never in the mirror's file), made at the first read and dropped when the table is written.
 */
export class LoadingIds {
  private readonly made = new Set<string>();

  constructor(private readonly db: SqlConnection) {}

  /** The temporary table (`id`, `rid`) of the resource's rows, made now if this connection has none. */
  async of(resource: ResourceSpec): Promise<string> {
    const table = tableOf(resource);
    if (!this.made.has(resource.name)) {
      // One left by a write that rolled back after dropping it is out of date too.
      await this.db.run(`drop table if exists temp.${table}`);
      await this.db.run(`create temp table ${table} as select "id", rowid as rid from main.${quote(resource.name)}`);
      await this.db.run(`create index temp.${quote(`vsf_loading_ids_${resource.name}_id`)} on ${table} ("id")`);
      this.made.add(resource.name);
    }
    return table;
  }

  /** Drops the resource's ids before its table is written (in the writing transaction, `tx`). */
  async forget(tx: SqlConnection, resource: ResourceSpec): Promise<void> {
    if (!this.made.delete(resource.name)) return;
    await tx.run(`drop table temp.${tableOf(resource)}`);
  }
}

const tableOf = (resource: ResourceSpec): string => quote(`vsf_loading_ids_${resource.name}`);
