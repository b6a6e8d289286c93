import type { Executor } from './executor.js';

/** A nullable `timestamptz` column as the API writes it. */
export const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** A `jsonb` array of strings: PGlite hands it back parsed, some drivers as text. */
export const jsonArray = (value: string[] | string): string[] =>
  typeof value === 'string' ? (JSON.parse(value) as string[]) : value;

/** When an admin record was created and last changed, from its `created_at` and `updated_at` columns. */
export const recordTimes = (row: { created_at: Date; updated_at: Date }) => ({
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
});

/**
 * Updates the row `where` picks: a new `updated_at`, then each of `columns` a patch gives (an undefined
 * value leaves its column as it is). The row as it now stands, mapped; undefined when there is none.
 */
export async function updateRow<R, T>(
  db: Executor,
  table: string,
  where: Record<string, string>,
  columns: Record<string, unknown>,
  now: Date,
  map: (row: R) => T,
): Promise<T | undefined> {
  const values: Record<string, unknown> = { updated_at: now };
  for (const [column, value] of Object.entries(columns)) if (value !== undefined) values[column] = value;
  const [row] = await db(table).where(where).update(values).returning('*');
  return row ? map(row) : undefined;
}
