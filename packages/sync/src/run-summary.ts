import { PermissionDeniedError } from '@vsf/sdk';
import type { MirrorTeam } from './mirror-team.js';
import type { ResourceSpec } from './resources.js';
import type { RetryOptions, RetrySummary, RunRetries, StopReason } from './retry/run-retries.js';
import type { Sink, SyncMode } from './sinks/sink.js';
import type { PageSource } from './source.js';

// What a run is asked and what it answers, shared by the list run (engine.ts), the feed run and nested lists.

export const PAGE_SIZE = 200;
export const DEFAULT_LOOKBACK_MS = 60_000;

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

/** A 403 on a list: the key lacks the resource's read scope. Another key may read it; this one never will. */
export function isForbidden(error: unknown): boolean {
  return error instanceof PermissionDeniedError;
}

/**
 * Runs `work`, one resource's run, which fills `summary` in and answers it. A failure is reported in the
 * summary (`forbidden` for a 403, else `failed`, with its message) instead of thrown, so the other resources
 * keep their progress; either way `summary.durationMs` is the time since `started`.
 */
export async function summariseRun(
  summary: ResourceSummary,
  started: number,
  work: () => Promise<ResourceSummary>,
): Promise<ResourceSummary> {
  try {
    return await work();
  } catch (error) {
    summary.status = isForbidden(error) ? 'forbidden' : 'failed';
    summary.error = (error as Error).message;
    return summary;
  } finally {
    summary.durationMs = Math.round(performance.now() - started);
  }
}
