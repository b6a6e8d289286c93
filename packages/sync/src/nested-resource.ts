import { randomUUID } from 'node:crypto';
import { completeRun } from './complete-run.js';
import { isoTime } from './iso-time.js';
import type { MirrorTeam } from './mirror-team.js';
import { isLastPage } from './page-window.js';
import type { ResourceSpec } from './resources.js';
import type { RunRetries } from './retry/run-retries.js';
import { emptySummary, PAGE_SIZE, type ResourceSummary, type SyncOptions, summariseRun } from './run-summary.js';
import type { SyncMode } from './sinks/sink.js';
import type { FetchedPage } from './source.js';

/**
 * A nested list (`/cars/{carId}/events`), which the team has no list of: read once per record of its
 * parent in the mirror (the cars), page by page, after the parent's own run. A stopped run is redone from
 * the first parent with the same run id (its rows stay seen, so a full run's prune still holds), rather
 * than resumed mid-way: the records are small and the pages idempotent.
 *
 * Its watermark is the parent's: every change before the parent's last run started is in the mirror, and
 * a record under a parent created later has a later `updatedAt`, so the next incremental run meets it.
 */
export async function syncNestedResource(
  resource: ResourceSpec,
  parent: ResourceSpec,
  options: SyncOptions,
  retries: RunRetries,
  team: MirrorTeam,
): Promise<ResourceSummary> {
  const started = performance.now();
  const { sink } = options;
  const state = options.dryRun ? { watermark: null, checkpoint: null } : await sink.getState(resource);
  const mode: SyncMode =
    state.checkpoint?.mode ?? (options.mode === 'full' || !state.watermark ? 'full' : 'incremental');
  const lookback = options.lookbackMs ?? 60_000;
  const updatedAfter =
    state.checkpoint?.updatedAfter ??
    (mode === 'incremental' && state.watermark ? isoTime(new Date(Date.parse(state.watermark) - lookback)) : null);
  const summary = emptySummary(resource, {
    status: 'completed',
    mode,
    updatedAfter,
    resumed: Boolean(state.checkpoint),
  });
  return summariseRun(summary, started, async () => {
    const parentState = (await sink.hasMirror(parent)) ? await sink.getState(parent) : undefined;
    if (!parentState?.watermark) {
      throw new Error(
        `${resource.name} is read car by car from the ${parent.name} mirror, which has not been synced yet: sync ${parent.name} too`,
      );
    }
    if (options.dryRun) {
      summary.status = 'dry-run';
      summary.pages = await sink.countRows(parent);
      return summary;
    }
    const checkpoint = {
      runId: state.checkpoint?.runId ?? randomUUID(),
      mode,
      startedAt: parentState.watermark,
      nextPage: 1,
      updatedAfter,
      firstTotal: 0,
    };
    for (let after: string | null = null; ; ) {
      const ids = await sink.idsAfter(parent, after, PAGE_SIZE);
      if (ids.length === 0) break;
      for (const parentId of ids) {
        for (let page = 1; ; page++) {
          const fetched: FetchedPage = await retries.attempt(
            `${resource.name} of ${parent.name} ${parentId} page ${page}`,
            (signal) =>
              options.source.fetchPage(resource, {
                page,
                limit: PAGE_SIZE,
                parentId,
                updatedAfter: updatedAfter ?? undefined,
                signal,
              }),
            () => summary.retries++,
          );
          await team.admit(fetched.records);
          const { upserted } = await sink.applyPage(resource, fetched.records, checkpoint);
          summary.pages++;
          summary.upserted += upserted;
          summary.total += page === 1 ? fetched.total : 0;
          if (isLastPage(fetched)) break;
        }
      }
      after = ids[ids.length - 1] as string;
    }
    return await completeRun(resource, options, mode, checkpoint, summary);
  });
}
