import { isoTime } from '../iso-time.js';
import type { MirrorTeam } from '../mirror-team.js';
import type { ResourceSpec } from '../resources.js';
import type { ResourceChanges, Sink } from '../sinks/sink.js';
import type { FeedPage, FeedSource } from '../source.js';

/** Events per feed request: the most the feed gives in one page. */
export const FEED_PAGE_SIZE = 500;

export interface DrainOptions {
  feed: FeedSource;
  sink: Sink;
  /** Every one has a feed cursor (a completed run set it). */
  resources: readonly ResourceSpec[];
  /** Refuses a page of another team's records than the mirror holds, before any of it is written. */
  team: MirrorTeam;
  /** Fetches one page, with whatever retrying the caller wants. */
  fetch: (after: number, wait: number) => Promise<FeedPage>;
  /** Long poll for the first page when nothing follows the cursor; 0 for a run that ends when caught up. */
  wait?: number;
  onPage?: (applied: AppliedPage) => void;
}

export interface AppliedPage {
  events: number;
  upserted: number;
  deleted: number;
  cursor: number;
  /** Per resource name, the changes applied. */
  byResource: Map<string, { upserted: number; deleted: number }>;
  /** Milliseconds from the oldest applied event's recording to its commit into the mirror. */
  lagMs: number[];
}

/**
 * Applies the feed from the resources' lowest cursor until it is caught up. Each page is one sink
 * transaction holding its changes and every resource's new cursor, so a killed follower resumes after
 * the last page it committed and applies nothing twice; an event at or below a resource's own cursor
 * (already in its mirror from a run that set it later) is skipped.
 */
export async function drainFeed(options: DrainOptions): Promise<AppliedPage[]> {
  const cursors = new Map<string, number>();
  for (const resource of options.resources) {
    cursors.set(resource.name, (await options.sink.getState(resource)).feedCursor ?? 0);
  }
  const byEvent = new Map(options.resources.map((r) => [r.event, r]));
  let after = Math.min(...cursors.values());
  const applied: AppliedPage[] = [];
  for (let wait = options.wait ?? 0; ; wait = 0) {
    const page = await options.fetch(after, wait);
    const changes = new Map<string, ResourceChanges>(
      options.resources.map((resource) => [resource.name, { resource, upserts: [], deletes: [] }]),
    );
    let events = 0;
    for (const event of page.events) {
      const resource = byEvent.get(event.resource);
      if (!resource || event.cursor <= (cursors.get(resource.name) ?? 0)) continue;
      const change = changes.get(resource.name) as ResourceChanges;
      if (event.data) change.upserts.push(event.data);
      else change.deletes.push(event.recordId);
      events++;
    }
    const watermark = page.hasMore ? null : isoTime(page.serverDate);
    await options.team.admit([...changes.values()].flatMap((c) => c.upserts));
    const result = await options.sink.applyChanges([...changes.values()], { cursor: page.nextCursor, watermark });
    const committed = Date.now();
    for (const name of cursors.keys()) cursors.set(name, Math.max(cursors.get(name) ?? 0, page.nextCursor));
    const summary: AppliedPage = {
      events,
      ...result,
      cursor: page.nextCursor,
      byResource: new Map(
        [...changes.values()].map((c) => [c.resource.name, { upserted: c.upserts.length, deleted: c.deletes.length }]),
      ),
      lagMs: page.events.map((e) => committed - Date.parse(e.createdAt)),
    };
    applied.push(summary);
    options.onPage?.(summary);
    after = page.nextCursor;
    if (!page.hasMore) return applied;
  }
}
