import { randomUUID } from 'node:crypto';
import { completeRun } from './complete-run.js';
import { syncThroughFeed } from './feed/feed-run.js';
import { isoTime } from './iso-time.js';
import { MirrorTeam } from './mirror-team.js';
import { syncNestedResource } from './nested-resource.js';
import { isLastPage, PageWindow } from './page-window.js';
import { type ResourceSpec, selectResources, syncableResources } from './resources.js';
import { RunRetries } from './retry/run-retries.js';
import {
  DEFAULT_LOOKBACK_MS,
  emptySummary,
  isForbidden,
  PAGE_SIZE,
  type ResourceSummary,
  runResult,
  type SyncOptions,
  type SyncProgress,
  type SyncResult,
  summariseRun,
} from './run-summary.js';
import type { Checkpoint, Sink, SyncMode } from './sinks/sink.js';
import type { FetchedPage } from './source.js';

export type { ResourceSummary, SyncOptions, SyncProgress, SyncResult };
export { DEFAULT_LOOKBACK_MS, emptySummary, isForbidden, PAGE_SIZE, runResult };

const MAX_ATTEMPTS = 3;

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
    ? await syncThroughFeed({ ...run, feed, selected: resources, retries, listResources: syncResources })
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

  return summariseRun(summary, started, async () => {
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
        await completeRun(resource, options, mode, outcome, summary);
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
  });
}

/**
 * The summary of a resumed run followed by its incremental catch-up, reported as one: written into the
 * run's own summary, whose duration summariseRun sets last (a copy would report 0 ms).
 */
function withCatchUp(resumed: ResourceSummary, catchUp: ResourceSummary): ResourceSummary {
  return Object.assign(resumed, {
    status: catchUp.status,
    pages: resumed.pages + catchUp.pages,
    upserted: resumed.upserted + catchUp.upserted,
    deleted: resumed.deleted + catchUp.deleted,
    total: catchUp.total,
    retries: resumed.retries + catchUp.retries,
    watermark: catchUp.watermark ?? resumed.watermark,
    ...(catchUp.error ? { error: catchUp.error } : {}),
  });
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

async function safeState(sink: Sink, resource: ResourceSpec) {
  try {
    return await sink.getState(resource);
  } catch {
    return { watermark: null, checkpoint: null };
  }
}
