import { type SyncOptions, type SyncResult, syncLocked } from '../engine.js';
import { MirrorTeam } from '../mirror-team.js';
import { selectResources } from '../resources.js';
import { classifyFailure } from '../retry/classify-failure.js';
import { SyncAbortedError } from '../retry/run-retries.js';
import { FeedCursorGoneError } from '../source.js';
import { type AppliedPage, drainFeed, FEED_PAGE_SIZE } from './drain-feed.js';

/** The long poll a follower asks for: an idle feed costs one request per 25 s, a change arrives at once. */
export const FOLLOW_WAIT_SECONDS = 25;
/** How often a follower of a server without the feed runs an incremental sync. */
export const DEFAULT_POLL_INTERVAL_MS = 30_000;
const MAX_BACKOFF_MS = 15_000;

export interface FollowOptions extends SyncOptions {
  /** Aborting it (SIGTERM) ends the follower after the change it is applying, with its cursor saved. */
  signal: AbortSignal;
  /** Between incremental runs when the server has no events feed. */
  pollIntervalMs?: number | undefined;
  /** Each sync run (the first, and each resync or poll). */
  onRun?: ((result: SyncResult) => void) | undefined;
  /** Each page of the feed applied to the mirror. */
  onApplied?: ((page: AppliedPage) => void) | undefined;
  /** What a person watching should know, once per occurrence: the server has no feed, it went away, it is back. */
  onNotice?: ((message: string) => void) | undefined;
}

/**
 * `vsf sync --follow`: syncs, then keeps the mirror current until `signal` aborts, holding the sink's lock
 * throughout. Against a server announcing its events feed it long-polls the feed and applies each page in
 * one transaction with its cursor; against any other it runs an incremental sync every `pollIntervalMs`.
 * A server restarting or the network failing is waited out with backoff, never the end of the follower.
 */
export async function follow(options: FollowOptions): Promise<void> {
  const resources = selectResources(options.resources);
  const { sink, signal } = options;
  await sink.prepare(resources);
  await sink.lock('vsf sync --follow');
  const team = new MirrorTeam(sink, resources, options.source);
  let failures = 0;
  let down: string | undefined;
  const wentDown = async (error: unknown) => {
    const message = (error as Error).message;
    if (!down) options.onNotice?.(`${message}; retrying until it answers`);
    down = message;
    await sleep(Math.min(MAX_BACKOFF_MS, 500 * 2 ** failures++), signal);
  };
  const cameBack = () => {
    if (down) options.onNotice?.('the server answers again; following');
    down = undefined;
    failures = 0;
  };
  try {
    let hasFeed: boolean | undefined;
    let resync = true;
    while (!signal.aborted) {
      if (resync) {
        const result = await syncLocked(options, resources);
        options.onRun?.(result);
        if (!result.ok) {
          // Neither a refused key nor another team's mirror is a server to wait for.
          if (result.stopReason === 'key-refused' || result.stopReason === 'team-mismatch')
            throw new SyncAbortedError(result.error ?? 'the run was stopped', result.stopReason);
          await wentDown(new Error(result.error ?? 'the sync failed'));
          continue;
        }
        cameBack();
        if (hasFeed === undefined && !result.feed?.announced && options.useFeed !== false) {
          options.onNotice?.(
            `the server does not announce the events feed: syncing incrementally every ${Math.round((options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS) / 1000)} s`,
          );
        }
        hasFeed = Boolean(result.feed?.announced);
        resync = !hasFeed;
        if (!hasFeed) await sleep(options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS, signal);
        continue;
      }
      try {
        const feed = options.source.feed;
        if (!feed) throw new Error('the source has no events feed');
        await drainFeed({
          feed,
          sink,
          resources,
          team,
          wait: FOLLOW_WAIT_SECONDS,
          fetch: (after, wait) => feed.fetchEvents({ after, limit: FEED_PAGE_SIZE, wait, signal }),
          onPage: (page) => {
            cameBack();
            options.onApplied?.(page);
          },
        });
      } catch (error) {
        if (signal.aborted) break;
        if (error instanceof FeedCursorGoneError) {
          options.onNotice?.(`${error.message}; syncing in full`);
          resync = true;
          continue;
        }
        // A refused key, a bug, a mirror that cannot be written or is another team's would fail the same way again.
        const { kind } = classifyFailure(error);
        if (kind === 'fatal' || kind === 'fail') throw error;
        await wentDown(error);
      }
    }
  } finally {
    await sink.unlock();
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
