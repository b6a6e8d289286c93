import { MirrorTeam } from '../mirror-team.js';
import { type ResourceSpec, selectResources } from '../resources.js';
import { type RetryOptions, type RetrySummary, RunRetries, type StopReason } from '../retry/run-retries.js';
import { isForbidden, PAGE_SIZE } from '../run-summary.js';
import type { MirrorReader, Sink } from '../sinks/sink.js';
import type { FetchedPage, PageRequest, PageSource } from '../source.js';
import { canonicalFields, digest } from './canonical-json.js';

export interface VerifyOptions {
  source: PageSource;
  /** Read only: nothing is written, no lock is taken, no table is created. */
  sink: Pick<Sink, 'getState'> & MirrorReader;
  resources?: string[] | undefined;
  /**
   * A record the mirror lacks or holds differently is `pending`, not drift, when the server changed it
   * at or after `watermark − lookbackMs` (the last completed run's start): the next incremental run
   * fetches it. Default 0; raise it where writes take long to commit.
   */
  lookbackMs?: number | undefined;
  /** Ids listed per kind of drift and resource; the counts are always complete. Default 20. */
  maxIds?: number | undefined;
  retry?: RetryOptions | undefined;
}

export interface DifferentRow {
  id: string;
  /** Fields whose values differ between the server and the mirror. */
  fields: string[];
}

export interface ResourceVerification {
  resource: string;
  /**
   * `ok`: the mirror equals the server (pending rows aside); `drift`; `failed`: could not compare;
   * `skipped`: not compared, because the run was stopped (see `VerifyResult.error`); `forbidden`: the key
   * may not read it (a missing scope), so it is left out as `sync` leaves it out.
   */
  status: 'ok' | 'drift' | 'failed' | 'skipped' | 'forbidden';
  /** Server start time of the mirror's last completed run (null: never synced). */
  watermark: string | null;
  /** A run was interrupted and has not been resumed yet. */
  interrupted: boolean;
  serverCount: number;
  mirrorCount: number;
  /** Pages of the server's list compared, and how many of them had a digest unlike the mirror's. */
  pages: number;
  pagesDiffering: number;
  /** On the server, not in the mirror. */
  missing: { count: number; ids: string[] };
  /** In the mirror, not on the server (hard-deleted there; `sync --full --prune` drops them). */
  extra: { count: number; ids: string[] };
  /** In both, with different values. */
  different: { count: number; rows: DifferentRow[] };
  /** Changed on the server since the mirror's last run: the next incremental run fetches them. */
  pending: number;
  error?: string;
}

export interface VerifyResult {
  /** No drift and no failure. */
  ok: boolean;
  drift: boolean;
  resources: ResourceVerification[];
  retries: RetrySummary;
  /** Why the comparison stopped early (server unreachable, retries spent). */
  error?: string;
  stopReason?: StopReason;
}

/**
 * Compares a mirror with the server without changing either. The server's list is read page by page
 * (200 records, with soft-deleted ones where the sync asks for them), and each page is compared with
 * the mirror's rows of the same ids by a digest of their canonical JSON (ids, `updatedAt`, every
 * value); only a page whose digests differ is compared record by record. Rows only the mirror has are
 * found by paging the mirror's ids and asking the server for them (the `ids` filter), which happens
 * only when the counts say such rows exist. Memory holds a page at a time, whatever the mirror's size.
 */
export async function verify(options: VerifyOptions): Promise<VerifyResult> {
  const resources = selectResources(options.resources);
  const retries = new RunRetries(options.retry, options.source.url);
  // Another team's key would see every row as missing or extra: the comparison stops and says whose it is.
  const team = new MirrorTeam(
    options.sink,
    resources,
    options.source,
    retries,
    (mirrorTeam, keyTeam) =>
      `the mirror belongs to another team; verify it with a key of team ${mirrorTeam}, or point it at team ${keyTeam}'s own mirror`,
  );
  const results: ResourceVerification[] = [];
  for (const resource of resources) results.push(await verifyResource(resource, options, retries, team));
  const error = retries.abortReason?.message;
  const drift = results.some((r) => r.status === 'drift');
  return {
    ok: !error && results.every((r) => r.status === 'ok' || r.status === 'forbidden'),
    drift,
    resources: results,
    retries: retries.summary,
    ...(error ? { error, stopReason: retries.abortReason?.reason } : {}),
  };
}

async function verifyResource(
  resource: ResourceSpec,
  options: VerifyOptions,
  retries: RunRetries,
  team: MirrorTeam,
): Promise<ResourceVerification> {
  const maxIds = options.maxIds ?? 20;
  const result: ResourceVerification = {
    resource: resource.name,
    status: 'ok',
    watermark: null,
    interrupted: false,
    serverCount: 0,
    mirrorCount: 0,
    pages: 0,
    pagesDiffering: 0,
    missing: { count: 0, ids: [] },
    extra: { count: 0, ids: [] },
    different: { count: 0, rows: [] },
    pending: 0,
  };
  if (retries.abortReason) return { ...result, status: 'skipped' };
  const fetchPage = (request: Omit<PageRequest, 'signal'>): Promise<FetchedPage> =>
    retries.attempt(`${resource.name} page ${request.page}`, (signal) =>
      options.source.fetchPage(resource, { ...request, includeDeleted: resource.includeDeleted, signal }),
    );
  try {
    const exists = await options.sink.hasMirror(resource);
    if (exists) {
      const state = await options.sink.getState(resource);
      result.watermark = state.watermark;
      result.interrupted = state.checkpoint !== null;
      result.mirrorCount = await options.sink.countRows(resource);
    }
    const pendingFrom = result.watermark
      ? Date.parse(result.watermark) - (options.lookbackMs ?? 0)
      : Number.POSITIVE_INFINITY;
    const isPending = (record: Record<string, unknown>) =>
      typeof record.updatedAt === 'string' && Date.parse(record.updatedAt) >= pendingFrom;

    // Server → mirror: every server record is in the mirror with the same values. A nested list (a
    // car's events) is read per record of its parent's mirror; its ids are kept to tell extra rows.
    let presentInMirror = 0;
    const compare = async (fetched: FetchedPage) => {
      await team.admit(fetched.records);
      result.pages++;
      presentInMirror += await comparePage(resource, fetched, options, result, exists, isPending, maxIds);
    };
    const serverIds = resource.parent ? new Set<string>() : undefined;
    const parent = resource.parent && selectResources([resource.parent.resource])[0];
    if (parent) {
      const parentIds = (await options.sink.hasMirror(parent))
        ? (after: string | null) => options.sink.idsAfter(parent, after, PAGE_SIZE)
        : async () => [];
      for (let after: string | null = null; ; ) {
        const ids = await parentIds(after);
        if (ids.length === 0) break;
        for (const parentId of ids) {
          for (let page = 1; ; page++) {
            const fetched = await fetchPage({ page, limit: PAGE_SIZE, parentId });
            if (page === 1) result.serverCount += fetched.total;
            for (const record of fetched.records) serverIds?.add(String(record.id));
            await compare(fetched);
            if (fetched.records.length === 0 || fetched.page * fetched.limit >= fetched.total) break;
          }
        }
        after = ids[ids.length - 1] as string;
      }
    } else {
      for (let page = 1; ; page++) {
        const fetched = await fetchPage({ page, limit: PAGE_SIZE });
        result.serverCount = fetched.total;
        await compare(fetched);
        if (fetched.records.length === 0 || fetched.page * fetched.limit >= fetched.total) break;
      }
    }

    // Mirror → server: rows only the mirror has. Every mirrored row the pages above did not meet is
    // either extra or was skipped by a record moving between pages; asking the server by id tells.
    if (result.mirrorCount > presentInMirror) {
      for (let after: string | null = null; ; ) {
        const ids = await options.sink.idsAfter(resource, after, PAGE_SIZE);
        if (ids.length === 0) break;
        // A nested list was read whole above; a team-wide one is asked for the ids.
        const known =
          serverIds ?? new Set((await fetchPage({ page: 1, limit: PAGE_SIZE, ids })).records.map((r) => String(r.id)));
        for (const id of ids) {
          if (known.has(id)) continue;
          result.extra.count++;
          if (result.extra.ids.length < maxIds) result.extra.ids.push(id);
        }
        after = ids[ids.length - 1] as string;
      }
    }
    if (result.missing.count + result.extra.count + result.different.count > 0) result.status = 'drift';
  } catch (error) {
    result.status = isForbidden(error) ? 'forbidden' : 'failed';
    result.error = (error as Error).message;
  }
  return result;
}

/** Compares one page of the server's list with the mirror's rows of its ids; the rows the mirror has. */
async function comparePage(
  resource: ResourceSpec,
  fetched: FetchedPage,
  options: VerifyOptions,
  result: ResourceVerification,
  exists: boolean,
  isPending: (record: Record<string, unknown>) => boolean,
  maxIds: number,
): Promise<number> {
  const ids = fetched.records.map((r) => String(r.id));
  const stored = exists ? await options.sink.readByIds(resource, ids) : [];
  const mirrored = new Map(stored.map((r) => [String(r.id), canonicalFields(resource, r)]));
  const server = fetched.records.map((r) => canonicalFields(resource, r));
  if (digest(server) !== digest(ids.map((id) => mirrored.get(id) ?? null))) {
    result.pagesDiffering++;
    fetched.records.forEach((record, i) => {
      const id = ids[i] as string;
      const mine = mirrored.get(id);
      const theirs = server[i] as Record<string, string>;
      const fields = mine ? Object.keys(theirs).filter((f) => theirs[f] !== mine[f]) : [];
      if (mine && fields.length === 0) return;
      if (isPending(record)) result.pending++;
      else if (!mine) {
        result.missing.count++;
        if (result.missing.ids.length < maxIds) result.missing.ids.push(id);
      } else {
        result.different.count++;
        if (result.different.rows.length < maxIds) result.different.rows.push({ id, fields });
      }
    });
  }
  return mirrored.size;
}
