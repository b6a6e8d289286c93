import type { MirrorTeam } from '../mirror-team.js';
import type { ResourceSpec } from '../resources.js';
import type { RunRetries } from '../retry/run-retries.js';
import { emptySummary, type ResourceSummary, runResult, type SyncOptions, type SyncResult } from '../run-summary.js';
import { FeedCursorGoneError, type FeedSource } from '../source.js';
import { type AppliedPage, drainFeed, FEED_PAGE_SIZE } from './drain-feed.js';

export interface FeedRunOptions extends SyncOptions {
  feed: FeedSource;
  selected: readonly ResourceSpec[];
  retries: RunRetries;
  mirrorTeam: MirrorTeam;
  /** The list run (engine.ts's), for the resources the feed cannot bring up to date. */
  listResources: (resources: readonly ResourceSpec[], options: SyncOptions, retries: RunRetries) => Promise<SyncResult>;
}

/**
 * A run against a server that announces its events feed. A resource the feed has not yet been followed
 * for (a new mirror, one made by lists, an unfinished run, or `--full`) first gets a run by its list,
 * recorded with the feed's end read before it began; then every resource applies the feed's changes
 * since its cursor: no lookback re-reads, and hard deletes reach the mirror. When the server no longer
 * keeps the mirror's cursor (410), the resources are synced in full, with prune, and followed from there.
 */
export async function syncThroughFeed(options: FeedRunOptions): Promise<SyncResult> {
  const states = await Promise.all(options.selected.map((r) => options.sink.getState(r)));
  const needList = options.selected.filter(
    (_, i) => options.mode === 'full' || states[i]?.feedCursor == null || states[i]?.checkpoint,
  );
  const listed = needList.length > 0 ? await listRun(options, needList, {}) : undefined;
  const ready = options.selected.filter(
    (r) => !needList.includes(r) || listed?.resources.some((s) => s.resource === r.name && s.status === 'completed'),
  );
  const byName = new Map((listed?.resources ?? []).map((s) => [s.resource, s]));
  let resynced: string | undefined;
  if (ready.length > 0 && !options.retries.abortReason) {
    try {
      merge(byName, ready, await drain(options, ready));
    } catch (error) {
      if (!(error instanceof FeedCursorGoneError)) {
        for (const r of ready) byName.set(r.name, failed(r, byName.get(r.name), error));
        return result(options, byName, resynced);
      }
      // The feed moved past the mirror: only a full run can tell what changed and what was deleted.
      resynced = error.message;
      const full = await listRun(options, ready, { mode: 'full', prune: true });
      for (const summary of full.resources) byName.set(summary.resource, summary);
      const done = ready.filter((r) => byName.get(r.name)?.status === 'completed');
      // A run stopped meanwhile reads no more: its result says why.
      if (done.length > 0 && !options.retries.abortReason) merge(byName, done, await drain(options, done));
    }
  }
  return result(options, byName, resynced);
}

/** The listed resources by their lists, recorded with the feed's end as it was before they began. */
async function listRun(options: FeedRunOptions, resources: readonly ResourceSpec[], overrides: Partial<SyncOptions>) {
  const head = await options.retries.attempt('the events feed’s end', (signal) =>
    options.feed.fetchEvents({ limit: 0, signal }),
  );
  const { feed: _feed, selected: _selected, retries, listResources, ...sync } = options;
  return listResources(resources, { ...sync, ...overrides, feedCursorOnComplete: head.nextCursor }, retries);
}

function drain(options: FeedRunOptions, resources: readonly ResourceSpec[]): Promise<AppliedPage[]> {
  return drainFeed({
    feed: options.feed,
    sink: options.sink,
    resources,
    team: options.mirrorTeam,
    fetch: (after) =>
      options.retries.attempt(`events after ${after}`, (signal) =>
        options.feed.fetchEvents({ after, limit: FEED_PAGE_SIZE, signal }),
      ),
  });
}

/** Adds what the feed applied to each resource's summary (a new one for a resource that was not listed). */
function merge(byName: Map<string, ResourceSummary>, resources: readonly ResourceSpec[], pages: AppliedPage[]): void {
  const cursor = pages.at(-1)?.cursor;
  for (const resource of resources) {
    const summary = byName.get(resource.name) ?? feedSummary(resource);
    for (const page of pages) {
      const counts = page.byResource.get(resource.name);
      summary.upserted += counts?.upserted ?? 0;
      summary.deleted += counts?.deleted ?? 0;
      summary.feedChanges = (summary.feedChanges ?? 0) + (counts ? counts.upserted + counts.deleted : 0);
    }
    if (cursor !== undefined) summary.feedCursor = Math.max(cursor, summary.feedCursor ?? 0);
    byName.set(resource.name, summary);
  }
}

/** A resource the run only followed the feed for: no list page read. */
function feedSummary(resource: ResourceSpec): ResourceSummary {
  const summary = emptySummary(resource, {
    status: 'completed',
    mode: 'incremental',
    updatedAfter: null,
    resumed: false,
  });
  return { ...summary, via: 'feed', feedChanges: 0 };
}

function failed(resource: ResourceSpec, summary: ResourceSummary | undefined, error: unknown): ResourceSummary {
  return { ...(summary ?? feedSummary(resource)), status: 'failed', error: (error as Error).message };
}

function result(
  options: FeedRunOptions,
  byName: Map<string, ResourceSummary>,
  resynced: string | undefined,
): SyncResult {
  return {
    ...runResult([...byName.values()], options.retries),
    feed: { announced: true, ...(resynced ? { resynced } : {}) },
  };
}
