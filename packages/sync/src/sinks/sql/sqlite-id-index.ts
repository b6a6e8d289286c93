import type { ResourceSpec } from '../../resources.js';
import { quote, type SqlConnection } from './sql-connection.js';
import { mirrorColumns, onConflictUpdate } from './upsert-sql.js';

/**
 * A SQLite mirror table is made without its `id` index and loaded by plain inserts until its first run
 * completes; then the index is built once, from sorted keys. Upserting into it from the start put each
 * random id on an index leaf of its own: every page's commit rewrote ~200 leaves, and a 1M-car first
 * sync slowed from 39 000 to 22 000 rows/s as the index grew (plain inserts: 116 000 to 131 000, flat).
 */
const idIndexName = (resource: ResourceSpec): string => `vsf_${resource.name}_id`;

/** Whether the table has a unique index on `id` alone (its own, or the primary key of an older mirror). */
export async function hasIdIndex(db: SqlConnection, resource: ResourceSpec): Promise<boolean> {
  const [row] = await db.query<{ n: number }>(
    `select count(*) as n from pragma_index_list(?) as l where l."unique" = 1 and ` +
      `(select group_concat(name) from pragma_index_info(l.name)) = 'id'`,
    [resource.name],
  );
  return (row?.n ?? 0) > 0;
}

/**
 * Builds the `id` index of a table loaded without it, in the caller's transaction. A record read twice
 * while loading (its list moved under the run, or a resumed run read a page again) left two rows, and the
 * index refuses them: they are set aside and replayed in the order they arrived through the upsert later
 * pages use, so the row kept is the one the upserts would have kept.
 */
export async function buildIdIndex(tx: SqlConnection, resource: ResourceSpec): Promise<void> {
  const table = quote(resource.name);
  const create = `create unique index ${quote(idIndexName(resource))} on ${table} ("id")`;
  try {
    await tx.run(create);
    return;
  } catch (error) {
    // Only the failed statement is undone; the transaction goes on.
    if ((error as { code?: unknown }).code !== 'SQLITE_CONSTRAINT_UNIQUE') throw error;
  }
  const columns = mirrorColumns(resource).map(quote).join(', ');
  const repeats = quote(`vsf_${resource.name}_repeats`);
  await tx.run(
    `create temp table ${repeats} as select rowid as seq, ${columns} from ${table} ` +
      `where "id" in (select "id" from ${table} group by "id" having count(*) > 1)`,
  );
  await tx.run(`delete from ${table} where "id" in (select "id" from ${repeats})`);
  await tx.run(create);
  // An `insert … select` upsert takes its rows one at a time, in the select's order: a later row meets
  // the one before it as a conflict. Only each id's own rows need their arrival order; sorted by id
  // first, the index is written in order too. `where true` keeps SQLite from reading `on` as a join's.
  await tx.run(
    `insert into ${table} (${columns}) select ${columns} from ${repeats} where true order by "id", seq ${onConflictUpdate(resource)}`,
  );
  await tx.run(`drop table ${repeats}`);
}
