import type { VsfClient } from '@vsf/sdk';
import { classifyFailure, failureMessage } from './classify-failure.js';
import { deliverEntry, refusedPhotos } from './deliver-entry.js';
import type { QueueEntry } from './queue-entry.js';
import { tryLockQueue } from './queue-lock.js';
import type { BrokenEntry, QueueStore } from './queue-store.js';
import { otherTargetReason, type QueueTarget, sameTarget } from './queue-target.js';

export interface FlushReport {
  delivered: QueueEntry[];
  /** Refused for good (now or earlier): kept for the user to fix or drop. */
  attention: QueueEntry[];
  /** Still queued, with why. */
  waiting: { entry: QueueEntry; reason: string }[];
  broken: BrokenEntry[];
  /** Set when another vsf was flushing this queue, so this one delivered nothing. */
  busy?: boolean;
}

const carKeys = (entry: QueueEntry) => [entry.car.ref, entry.car.id].filter((k): k is string => Boolean(k));

/**
 * Delivers the queue in order. An entry refused for good is marked for attention and holds back the later
 * entries for the same car (their order matters: a pick-up after a failed drop-off makes no sense), while
 * entries for other cars go on. An unreachable API or a refused key stops the flush; a 5xx or 429 holds
 * back that car only. Broken entries are reported and skipped, never deleted.
 */
/** Progress for one entry's photos while it is delivered (`vsf queue flush` shows it; the automatic flush does not). */
export type EntryProgress = (
  entry: QueueEntry,
) => Promise<{ tick(photo: QueueEntry['photos'][number]): void; stop(): void }>;

export async function flushQueue(
  store: QueueStore,
  client: VsfClient,
  target: QueueTarget,
  progress?: EntryProgress,
): Promise<FlushReport> {
  const report: FlushReport = { delivered: [], attention: [], waiting: [], broken: [] };
  const { entries, broken } = store.read();
  report.broken = broken;
  if (entries.length === 0) return report;
  const release = tryLockQueue(store.dir);
  if (!release) {
    report.busy = true;
    for (const entry of entries) report.waiting.push({ entry, reason: 'another vsf is flushing the queue' });
    return report;
  }
  try {
    store.sweepLeftovers();
    const blockedCars = new Map<string, string>();
    let stopped: string | undefined;
    const block = (entry: QueueEntry) => {
      for (const key of carKeys(entry)) if (!blockedCars.has(key)) blockedCars.set(key, entry.id);
    };
    for (const entry of entries) {
      if (!sameTarget(entry.target, target)) {
        report.waiting.push({ entry, reason: otherTargetReason(entry.target, target) });
        continue;
      }
      if (stopped) {
        report.waiting.push({ entry, reason: stopped });
        continue;
      }
      if (entry.attention) {
        report.attention.push(entry);
        block(entry);
        continue;
      }
      const blocker = carKeys(entry)
        .map((k) => blockedCars.get(k))
        .find(Boolean);
      if (blocker) {
        report.waiting.push({ entry, reason: `waits behind ${blocker} for the same car` });
        continue;
      }
      entry.attempts += 1;
      const shown = await progress?.(entry);
      try {
        await deliverEntry(client, entry, {
          readPhoto: (photo) => store.readPhoto(entry, photo),
          checkpoint: () => store.save(entry),
          ...(shown ? { onPhotoDone: shown.tick } : {}),
          // What is queued waited for a bad link: one photo at a time gets each through whole, where four
          // sharing a slow uplink would each take four times as long and time out together.
          photoConcurrency: 1,
        });
        const refused = refusedPhotos(entry);
        if (refused.length > 0) {
          entry.attention = {
            message: `not delivered: ${refused.map((p) => `${p.source} (${p.refused})`).join(', ')}`,
            at: new Date().toISOString(),
          };
          store.save(entry);
          report.attention.push(entry);
          block(entry);
        } else {
          store.remove(entry.id);
          report.delivered.push(entry);
        }
      } catch (error) {
        const kind = classifyFailure(error);
        entry.lastError = failureMessage(error);
        if (kind === 'permanent') {
          const status = (error as { status?: number }).status;
          entry.attention = {
            ...(status ? { status } : {}),
            message: entry.lastError,
            at: new Date().toISOString(),
          };
          report.attention.push(entry);
        } else {
          report.waiting.push({ entry, reason: entry.lastError });
          if (kind === 'unreachable') stopped = `not tried: the API is unreachable (${entry.lastError})`;
          if (kind === 'auth') stopped = `not tried: the key was refused (${entry.lastError})`;
        }
        store.save(entry);
        block(entry);
      } finally {
        shown?.stop();
      }
    }
  } finally {
    release();
  }
  return report;
}
