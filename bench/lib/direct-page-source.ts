import type { FetchedPage, PageRequest, PageSource, ResourceSpec } from '@vsf/sync';
import type { Knex } from 'knex';

/**
 * The floor of the sync benchmarks: the same rows, in the same order and the same record shape, read
 * straight from the server's PostgreSQL tables with no HTTP, no auth and no JSON in between. Pages by
 * key (the cheapest way to read a table in order) and counts once. A page's key is the last row of the
 * page before it, so requests the sync has in flight together are read one after the other, in order.
 */
export function directPageSource(knex: Knex, teamId: string): PageSource {
  let total = 0;
  let serverDate = new Date();
  let after: { updated_at: Date; id: string } | undefined;
  let previous: Promise<unknown> = Promise.resolve();
  return {
    fetchPage(resource: ResourceSpec, request: PageRequest): Promise<FetchedPage> {
      const page = previous.then(
        () => readPage(resource, request),
        () => readPage(resource, request),
      );
      previous = page.catch(() => undefined);
      return page;
    },
  };

  async function readPage(resource: ResourceSpec, request: PageRequest): Promise<FetchedPage> {
    const base = knex(resource.name).where({ team_id: teamId });
    if (request.updatedAfter) base.where('updated_at', '>=', request.updatedAfter);
    if (request.page === 1) {
      after = undefined;
      serverDate = new Date();
      total = Number((await base.clone().count({ n: '*' }).first())?.n ?? 0);
    }
    const query = base.clone().orderBy([
      { column: 'updated_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
    if (after) query.whereRaw('(updated_at, id) < (?, ?)', [after.updated_at, after.id]);
    const rows: Record<string, unknown>[] = await query.limit(request.limit);
    const last = rows.at(-1);
    if (last) after = { updated_at: last.updated_at as Date, id: String(last.id) };
    return {
      records: rows.map((row) => toRecord(resource, row)),
      page: request.page,
      limit: request.limit,
      total,
      serverDate,
    };
  }
}

function toRecord(resource: ResourceSpec, row: Record<string, unknown>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const { field, column, kind } of resource.columns) {
    const value = row[column];
    if (value === null || value === undefined) record[field] = null;
    else if (kind === 'timestamp') record[field] = (value as Date).toISOString();
    else if (kind === 'integer' || kind === 'number') record[field] = Number(value);
    else record[field] = value;
  }
  return record;
}
