import { randomUUID } from 'node:crypto';
import { PermissionDeniedError } from '@vsf/sdk';
import { syncThroughFeed } from './feed/feed-run.js';
import { isoTime } from './iso-time.js';
import { MirrorTeam } from './mirror-team.js';
import { syncNestedResource } from './nested-resource.js';
import { isLastPage, PageWindow } from './page-window.js';
import { type ResourceSpec, selectResources, syncableResources } from './resources.js';
import { type RetryOptions, type RetrySummary, RunRetries, type StopReason } from './retry/run-retries.js';
import type { Checkpoint, Sink, SyncMode } from './sinks/sink.js';
import type { FetchedPage, PageSource } from './source.js';

export const PAGE_SIZE = 200;
export const DEFAULT_LOOKBACK_MS = 60_000;
const MAX_ATTEMPTS = 3;

export interface SyncProgress {
  resource: string;
  mode: SyncMode;
  page: number;
  pages: number;
  rows: number;
  total: number;
  rowsPerSecond: number;
}

export interface ResourceSummary {
  resource: string;
  /**
   * `skipped`: not started, because the run was stopped (see `SyncResult.error`). `forbidden`: the key may
   * not read it (a 403, a missing scope); the run goes on without it and is not failed by it.
   */
  status: 'completed' | 'failed' | 'dry-run' | 'skipped' | 'forbidden';
  mode: SyncMode;
  /** How the run read it: its list (pages), or only the events feed's changes. */
  via: 'lists' | 'feed';
  /** The `updatedAfter` sent, or null for a full run. */
  updatedAfter: string | null;
  resumed: boolean;
  pages: number;
  upserted: number;
  deleted: number;
  /** Total the server reported; for a dry run, what would be fetched. */
  total: number;
  durationMs: number;
  /** Requests of this resource retried after a blip. */
  retries: number;
  /** Server start time of this run, now the watermark (null unless completed). */
  watermark: string | null;
  /** Changes applied from the server's events feed (the `events` extension), when it announces one. */
  feedChanges?: number;
  /** Where the resource now follows the feed from. */
  feedCursor?: number;
  error?: string;
}

export interface SyncOptions {
  source: PageSource;
  sink: Sink;
  /** Resource names (`cars`, `customers`, …); default every syncable resource. */
  resources?: string[] | undefined;
  /** `auto` (default): incremental after a first completed run, full before it. */
  mode?: SyncMode | 'auto';
  lookbackMs?: number;
  /** After a complete full run with a stable total, delete mirrored rows the run did not see. */
  prune?: boolean;
  /** Fetch one page of each resource and report what a run would fetch; write nothing. */
  dryRun?: boolean;
  /** Resources synced at once. */
  concurrency?: number;
  /**
   * Page requests each resource keeps in flight while it writes the page before them (default 2); each
   * holds a page in memory. 1 asks for the next page only once the one before it has arrived.
   */
  pagesInFlight?: number | undefined;
  onProgress?: (progress: SyncProgress) => void;
  /** The run's retry budget for page requests (these replace the SDK client's own retries). */
  retry?: RetryOptions | undefined;
  /**
   * Follow the server's events feed where it announces one (default): an incremental run reads the
   * changes since the mirror's cursor (hard deletes included, no lookback re-reads) instead of lists.
   * `false` syncs by lists only, as against a spec-only server.
   */
  useFeed?: boolean | undefined;
  /** @internal A completed run records this as the resource's feed cursor (the feed's end before it began). */
  feedCursorOnComplete?: number | undefined;
  /** @internal The run's check that the mirror holds one team's records, shared by its resources. */
  mirrorTeam?: MirrorTeam | undefined;
}

export interface SyncResult {
  ok: boolean;
  resources: ResourceSummary[];
  /** Retries the run spent, and why. */
  retries: RetrySummary;
  /** Why the run was stopped before every resource was tried (server unreachable, retries spent). */
  error?: string;
  stopReason?: StopReason;
  /** Whether the server announced the events feed (undefined when the run did not ask: dry runs, `useFeed: false`). */
  feed?: {
    announced: boolean;
    /** Set when the feed no longer had the mirror's cursor and a full run replaced it. */
    resynced?: string;
  };
}

/** Full and incremental sync of every selected resource into one sink, holding the sink's lock. */
export async function sync(options: SyncOptions): Promise<SyncResult> {
  const resources = selectResources(options.resources);
  const { sink } = options;
  if (!options.dryRun) {
    await sink.prepare(resources);
    await sink.lock('vsf sync');
  }
  try {
    return await syncLocked(options, resources);
  } finally {
    if (!options.dryRun) await sink.unlock();
  }
}

/** A run on a sink already prepared and locked by the caller (`sync`, or a follower holding it throughout). */
export async function syncLocked(options: SyncOptions, resources: ResourceSpec[]): Promise<SyncResult> {
  const retries = new RunRetries(options.retry, options.source.url);
  const run = { ...options, mirrorTeam: new MirrorTeam(options.sink, resources, options.source, retries) };
  const feed = options.dryRun || options.useFeed === false ? undefined : options.source.feed;
  // Not a nested list: its list needs a parent's id.
  const probe = resources.find((r) => !r.parent) ?? syncableResources().find((r) => r.name === 'cars');
  if (!feed || !probe) return syncResources(resources, run, retries);
  // Whether the server announces its feed, learnt from the first page of the first resource (one record):
  // its failures and retries are that resource's, as they would be without the feed.
  let probeRetries = 0;
  let announced = false;
  try {
    announced = await retries.attempt(
      `${probe.name} page 1`,
      (signal) => feed.announced(probe, signal),
      () => probeRetries++,
    );
  } catch (error) {
    if (retries.abortReason) {
      const stopped = await syncResources(resources, run, retries);
      const first = stopped.resources.find((r) => r.resource === probe.name);
      if (first) Object.assign(first, { status: 'failed', error: (error as Error).message, retries: probeRetries });
      return stopped;
    }
    // This resource cannot be listed (a missing scope): its own run reports why; the others go on by lists.
  }
  const result = announced
    ? await syncThroughFeed({ ...run, feed, selected: resources, retries })
    : { ...(await syncResources(resources, run, retries)), feed: { announced: false } };
  const first = result.resources.find((r) => r.resource === probe.name);
  if (first) first.retries += probeRetries;
  return result;
}

/** Each resource by its list, `concurrency` at a time; the run's result once all are done or it stopped. */
export async function syncResources(
  resources: readonly ResourceSpec[],
  options: SyncOptions,
  retries: RunRetries,
): Promise<SyncResult> {
  const summaries: ResourceSummary[] = [];
  const team = options.mirrorTeam ?? new MirrorTeam(options.sink, resources, options.source, retries);
  const run = async (batch: readonly ResourceSpec[]) => {
    const queue = [...batch];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        // A stopped run starts nothing more: the next resource would only fail the same way.
        summaries.push(
          retries.abortReason
            ? skipped(next, options)
            : await syncAny(next, { ...options, mirrorTeam: team }, retries, summaries),
        );
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, worker));
  };
  // Nested lists are read per record of their parent's mirror: after the parents' runs.
  await run(resources.filter((r) => !r.parent));
  await run(resources.filter((r) => r.parent));
  return runResult(summaries, retries);
}

/** A resource by its list, or a nested one per record of its parent. */
async function syncAny(
  resource: ResourceSpec,
  options: SyncOptions,
  retries: RunRetries,
  done: readonly ResourceSummary[],
): Promise<ResourceSummary> {
  if (!resource.parent) return syncResource(resource, options, retries);
  // A key that may not read the cars may not read their events either: forbidden, as the cars are.
  const parentRun = done.find((s) => s.resource === resource.parent?.resource);
  if (parentRun?.status === 'forbidden') {
    const mode = options.mode === 'full' ? 'full' : 'incremental';
    const summary = emptySummary(resource, { status: 'forbidden', mode, updatedAfter: null, resumed: false });
    return { ...summary, ...(parentRun.error ? { error: parentRun.error } : {}) };
  }
  const parent = syncableResources().find((r) => r.name === resource.parent?.resource) as ResourceSpec;
  return syncNestedResource(resource, parent, options, retries, options.mirrorTeam as MirrorTeam);
}

/** A run's result from its resources' summaries: in name order, ok unless one failed or the run stopped. */
export function runResult(summaries: readonly ResourceSummary[], retries: RunRetries): SyncResult {
  // Code-unit order, not localeCompare: names are ASCII, and the first collation loads ICU's data (~3 MB of RSS).
  const sorted = [...summaries].sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
  const stopped = retries.abortReason;
  return {
    ok: !stopped && sorted.every((s) => s.status !== 'failed'),
    resources: sorted,
    retries: retries.summary,
    ...(stopped ? { error: stopped.message, stopReason: stopped.reason } : {}),
  };
}

/** A summary before any page is read; a skipped resource is reported as one that stays so. */
export function emptySummary(
  resource: ResourceSpec,
  fields: Pick<ResourceSummary, 'status' | 'mode' | 'updatedAfter' | 'resumed'>,
): ResourceSummary {
  return {
    resource: resource.name,
    ...fields,
    via: 'lists',
    pages: 0,
    upserted: 0,
    deleted: 0,
    total: 0,
    durationMs: 0,
    retries: 0,
    watermark: null,
  };
}

function skipped(resource: ResourceSpec, options: SyncOptions): ResourceSummary {
  const mode = options.mode === 'full' ? 'full' : 'incremental';
  return emptySummary(resource, { status: 'skipped', mode, updatedAfter: null, resumed: false });
}

/** One resource; failures are reported in its summary so the others keep their progress. */
export async function syncResource(
  resource: ResourceSpec,
  options: SyncOptions,
  retries: RunRetries = new RunRetries(options.retry, options.source.url),
): Promise<ResourceSummary> {
  const started = performance.now();
  const team = options.mirrorTeam ?? new MirrorTeam(options.sink, [resource], options.source, retries);
  const state = options.dryRun ? { watermark: null, checkpoint: null } : await options.sink.getState(resource);
  const dryState = options.dryRun ? await safeState(options.sink, resource) : state;
  const watermark = dryState.watermark;
  const mode: SyncMode = dryState.checkpoint?.mode ?? (options.mode === 'full' || !watermark ? 'full' : 'incremental');
  const lookback = options.lookbackMs ?? DEFAULT_LOOKBACK_MS;
  const updatedAfter =
    dryState.checkpoint?.updatedAfter ??
    (mode === 'incremental' && watermark ? isoTime(new Date(Date.parse(watermark) - lookback)) : null);
  const summary = emptySummary(resource, {
    status: 'completed',
    mode,
    updatedAfter,
    resumed: Boolean(dryState.checkpoint),
  });
  const fetchPage = (page: number): Promise<FetchedPage> =>
    retries.attempt(
      `${resource.name} page ${page}`,
      (signal) =>
        options.source.fetchPage(resource, {
          page,
          limit: PAGE_SIZE,
          updatedAfter: updatedAfter ?? undefined,
          includeDeleted: resource.includeDeleted,
          signal,
        }),
      () => summary.retries++,
    );

  try {
    if (options.dryRun) {
      const first = await fetchPage(1);
      summary.status = 'dry-run';
      summary.total = first.total;
      summary.pages = Math.max(1, Math.ceil(first.total / PAGE_SIZE));
      return summary;
    }
    let checkpoint = state.checkpoint;
    for (let attempt = 1; ; attempt++) {
      const outcome = await runPages(resource, options, team, mode, fetchPage, checkpoint, summary);
      if (!outcome.totalShrank) {
        const prune = Boolean(options.prune) && mode === 'full';
        const { deleted } = await options.sink.completeRun(resource, {
          runId: outcome.runId,
          watermark: outcome.startedAt,
          prune,
          feedCursor: options.feedCursorOnComplete,
        });
        summary.deleted = deleted;
        summary.watermark = outcome.startedAt;
        if (options.feedCursorOnComplete !== undefined) summary.feedCursor = options.feedCursorOnComplete;
        // A resumed run finishes as of its original start: records changed while it was interrupted
        // may sit on pages it had already read. Catch up now, so one command leaves the mirror current
        // instead of one cron interval behind.
        return summary.resumed
          ? withCatchUp(
              summary,
              await syncResource(resource, { ...options, mode: 'incremental', mirrorTeam: team }, retries),
            )
          : summary;
      }
      // A hard delete shifted records into pages already read: this run may have skipped one.
      await options.sink.resetCheckpoint(resource);
      if (attempt >= MAX_ATTEMPTS) {
        throw new Error(
          `${resource.name}: records kept disappearing while paging (${MAX_ATTEMPTS} attempts); the watermark was not moved`,
        );
      }
      checkpoint = null;
    }
  } catch (error) {
    summary.status = isForbidden(error) ? 'forbidden' : 'failed';
    summary.error = (error as Error).message;
    return summary;
  } finally {
    summary.durationMs = Math.round(performance.now() - started);
  }
}

/** The summary of a resumed run followed by its incremental catch-up, reported as one. */
function withCatchUp(resumed: ResourceSummary, catchUp: ResourceSummary): ResourceSummary {
  return {
    ...resumed,
    status: catchUp.status,
    pages: resumed.pages + catchUp.pages,
    upserted: resumed.upserted + catchUp.upserted,
    deleted: resumed.deleted + catchUp.deleted,
    total: catchUp.total,
    retries: resumed.retries + catchUp.retries,
    watermark: catchUp.watermark ?? resumed.watermark,
    ...(catchUp.error ? { error: catchUp.error } : {}),
  };
}

async function runPages(
  resource: ResourceSpec,
  options: SyncOptions,
  team: MirrorTeam,
  mode: SyncMode,
  fetchPage: (page: number) => Promise<FetchedPage>,
  resumeFrom: Checkpoint | null,
  summary: ResourceSummary,
): Promise<{ runId: string; startedAt: string; totalShrank: boolean }> {
  const runStarted = performance.now();
  let checkpoint = resumeFrom;
  let pageNumber = checkpoint?.nextPage ?? 1;
  let smallestTotal = checkpoint?.firstTotal ?? Number.POSITIVE_INFINITY;
  // The server reads the next pages while this one is written. Pages are still written one by one, in
  // order, each with its checkpoint, so a killed run resumes exactly as before: pages fetched but not
  // yet written are simply fetched again.
  const pages = new PageWindow(fetchPage, pageNumber, options.pagesInFlight);
  for (;;) {
    const page = await pages.next();
    const last = isLastPage(page);
    checkpoint ??= {
      runId: randomUUID(),
      mode,
      startedAt: isoTime(page.serverDate),
      nextPage: 1,
      updatedAfter: summary.updatedAfter,
      firstTotal: page.total,
    };
    checkpoint = { ...checkpoint, nextPage: pageNumber + 1 };
    await team.admit(page.records);
    const { upserted } = await options.sink.applyPage(resource, page.records, checkpoint);
    summary.pages++;
    summary.upserted += upserted;
    summary.total = page.total;
    // The smallest, not the last: pages in flight together may carry their totals in any order.
    smallestTotal = Math.min(smallestTotal, page.total);
    const seconds = Math.max(0.001, (performance.now() - runStarted) / 1000);
    options.onProgress?.({
      resource: resource.name,
      mode,
      page: pageNumber,
      pages: Math.max(1, Math.ceil(page.total / PAGE_SIZE)),
      rows: summary.upserted,
      total: page.total,
      rowsPerSecond: Math.round(summary.upserted / seconds),
    });
    if (last) break;
    pageNumber++;
  }
  return {
    runId: checkpoint.runId,
    startedAt: checkpoint.startedAt,
    totalShrank: smallestTotal < checkpoint.firstTotal,
  };
}

/** A 403 on a list: the key lacks the resource's read scope. Another key may read it; this one never will. */
export function isForbidden(error: unknown): boolean {
  return error instanceof PermissionDeniedError;
}

async function safeState(sink: Sink, resource: ResourceSpec) {
  try {
    return await sink.getState(resource);
  } catch {
    return { watermark: null, checkpoint: null };
  }
}
