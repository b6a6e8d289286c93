import type { ResourceSpec } from './resources.js';
import type { ResourceSummary, SyncOptions } from './run-summary.js';
import type { SyncMode } from './sinks/sink.js';

/**
 * Ends a resource's run that read every page: the sink records the watermark (and the feed cursor the
 * run was given), prunes what a full run with `prune` did not see, and the summary says so.
 */
export async function completeRun(
  resource: ResourceSpec,
  options: SyncOptions,
  mode: SyncMode,
  run: { runId: string; startedAt: string },
  summary: ResourceSummary,
): Promise<ResourceSummary> {
  const { deleted } = await options.sink.completeRun(resource, {
    runId: run.runId,
    watermark: run.startedAt,
    prune: Boolean(options.prune) && mode === 'full',
    feedCursor: options.feedCursorOnComplete,
  });
  summary.deleted = deleted;
  summary.watermark = run.startedAt;
  if (options.feedCursorOnComplete !== undefined) summary.feedCursor = options.feedCursorOnComplete;
  return summary;
}
