import type { Command } from 'commander';
import { CliError, EXIT } from './exit-codes.js';
import { info, type OutputOptions } from './output.js';

export interface ListOptions {
  limit?: string;
  page?: string;
  all?: boolean;
}

/** What every list endpoint answers with (the SDK's `Page`). */
interface PageLike<T> {
  data: T[];
  page: number;
  limit: number;
  total: number;
}

/** `--limit`, `--page` and `--all`, the same on every list command. */
export const pageFlags = (cmd: Command): Command =>
  cmd
    .option('--limit <n>', 'records per page (1-200)', '50')
    .option('--page <n>', 'page number', '1')
    .option('--all', 'page through every record');

export function pageQuery(o: ListOptions): { limit: number; page: number } {
  const limit = Number(o.limit ?? 50);
  const page = Number(o.page ?? 1);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200)
    throw new CliError('--limit must be a whole number from 1 to 200', EXIT.usage);
  if (!Number.isInteger(page) || page < 1) throw new CliError('--page must be a whole number ≥ 1', EXIT.usage);
  return { limit, page };
}

/** `showing 51-100 of 264 — use --page 3 or --all`; undefined when the page is the whole list. */
export function pageHint(page: PageLike<unknown>): string | undefined {
  const shown = page.data.length;
  if (page.page === 1 && shown >= page.total) return undefined;
  const first = (page.page - 1) * page.limit + 1;
  const range = shown === 0 ? 'none' : `${first}-${first + shown - 1}`;
  const next = page.page * page.limit < page.total ? ` — use --page ${page.page + 1} or --all` : '';
  return `showing ${range} of ${page.total}${next}`;
}

/**
 * One page, or every record with `--all`. A page that is not the whole list says so on stderr (how many
 * exist and how to see more), so a table of 50 never passes for all of them.
 */
export async function fetchListed<T>(
  o: ListOptions,
  globals: OutputOptions,
  fetchPage: (query: { limit: number; page: number }) => PromiseLike<PageLike<T>>,
  all: (query: { limit: number }) => AsyncIterable<T>,
): Promise<T[]> {
  const query = pageQuery(o);
  if (o.all) {
    const rows: T[] = [];
    for await (const row of all({ limit: 200 })) rows.push(row);
    return rows;
  }
  const page = await fetchPage(query);
  const hint = pageHint(page);
  if (hint) info(globals, hint);
  return page.data;
}

/** A list of the SDK (`client.cars`): one page, or every record. */
interface Lister<T, Q> {
  list(query: Q): PromiseLike<PageLike<T>>;
  listAll(query: Q): AsyncIterable<T>;
}

/** `fetchListed` over a list of the SDK, with the command's filters in every request. */
export function listRecords<T, Q extends object>(
  o: ListOptions,
  globals: OutputOptions,
  lister: Lister<T, Q>,
  filter = {} as Q,
): Promise<T[]> {
  return fetchListed(
    o,
    globals,
    (q) => lister.list({ ...filter, ...q }),
    (q) => lister.listAll({ ...filter, ...q }),
  );
}
