import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { createClient, type GlobalOptions } from '../context.js';
import { mapInPool } from '../map-in-pool.js';
import { networkCause } from '../network-cause.js';
import type { PhotoFile } from '../photo-files.js';
import { classifyFailure, failureMessage } from './classify-failure.js';
import { deliverEntry } from './deliver-entry.js';
import { photoProgress } from './photo-progress.js';
import type { QueuedPhoto, QueueEntry } from './queue-entry.js';
import { QUEUE_ENTRY_VERSION } from './queue-entry.js';
import { queueOnInterrupt } from './queue-on-interrupt.js';
import { QueueStore, sha256OffThread } from './queue-store.js';
import { currentTarget, sameTarget } from './queue-target.js';
import { refuseRepeat } from './refuse-repeat.js';

export type OperationDraft = Pick<QueueEntry, 'operation' | 'car' | 'place' | 'event' | 'sessionId' | 'force'>;

export interface OperationOutcome {
  entry: QueueEntry;
  /** Set when the operation (or what was left of it) went into the offline queue. */
  queued?: { id: string; reason: string };
  /** Photos not delivered on a live run that failed part-way for a reason other than the network. */
  failure?: string;
}

/** The event body of a drop-off or pick-up, fixed now (occurredAt included) so every attempt sends the same. */
export function plannedEvent(
  activityType: 'drop_off' | 'pick_up',
  o: { notes?: string; at?: string },
): NonNullable<QueueEntry['event']> {
  return {
    body: { activityType, ...(o.notes ? { notes: o.notes } : {}), occurredAt: o.at ?? new Date().toISOString() },
    idempotencyKey: randomUUID(),
  };
}

/** Photos read and hashed at once: the thread pool's four threads, and a few reads queued behind them. */
const SNAPSHOT_POOL = 8;

/** A photo's bytes as they are now, and its queue record (named, sized, hashed, with its idempotency key). */
async function snapshot(path: string): Promise<[QueuedPhoto, Uint8Array]> {
  const data = await readFile(path);
  const photo: QueuedPhoto = {
    copy: '',
    source: path,
    filename: basename(path),
    size: data.byteLength,
    sha256: await sha256OffThread(data),
    idempotencyKey: randomUUID(),
  };
  return [photo, data];
}

/**
 * Runs a drop-off, pick-up or photo upload live; when the API cannot be reached — before the first step or
 * part-way — the steps not yet acknowledged go into the offline queue with their idempotency keys and the
 * photo bytes read at the start, to be delivered later exactly once. Operations also wait in the queue when
 * earlier ones for this key are still waiting there, so staff's order is the server's order.
 */
export async function runOrQueue(
  globals: GlobalOptions,
  draft: OperationDraft,
  files: PhotoFile[],
  onInterrupted?: (outcome: OperationOutcome) => void,
): Promise<OperationOutcome> {
  // One retry, not two: the queue retries for us, and a dead link should queue the work in seconds.
  const client = createClient(globals, { maxRetries: 1 });
  const target = currentTarget(globals);
  if (!target) throw new Error('No API key');
  // Read once: what is queued is exactly what would have been sent now, whatever happens to the files later.
  // Read and hashed side by side, off the main thread (40 photos one after another kept the server idle for
  // the first ~150 ms of an upload), and kept as read: a copy of each was a tenth of the CLI's CPU.
  const read = await mapInPool(files, SNAPSHOT_POOL, (file) => snapshot(file.path));
  const bytes = new Map<QueuedPhoto, Uint8Array>(read);
  const photos = read.map(([photo]) => photo);
  const entry: QueueEntry = {
    version: QUEUE_ENTRY_VERSION,
    id: '',
    createdAt: new Date().toISOString(),
    target,
    ...draft,
    photos,
    attempts: 0,
  };
  const store = new QueueStore();
  const queue = (reason: string): OperationOutcome => {
    const { id: _unset, ...rest } = entry;
    const stored = store.add({
      ...rest,
      photos: entry.photos.map((photo) => {
        const { copy: _copy, ...fields } = photo;
        const data = bytes.get(photo);
        return data ? { ...fields, bytes: data } : fields;
      }),
    });
    return { entry: stored, queued: { id: stored.id, reason } };
  };

  const ahead = waitingAhead(store, entry);
  if (ahead > 0) return queue(`${ahead} earlier operation(s) are still in the queue; this one waits behind them`);

  const progress = await photoProgress(globals, entry.photos);
  entry.attempts = 1;
  // Ctrl-C never loses work: what the server has not confirmed yet is queued, with its idempotency keys, so
  // a request that reached the server anyway is not stored twice when the queue delivers it.
  const stopWatching = queueOnInterrupt(() => {
    progress.stop();
    const unconfirmed =
      (entry.event !== undefined && !entry.event.result) || entry.photos.some((p) => !p.photoId && !p.refused);
    // Stopped after the last answer came: everything is on the server, nothing to queue.
    if (!unconfirmed) return onInterrupted?.({ entry });
    entry.lastError = 'stopped with Ctrl-C';
    onInterrupted?.(queue('you stopped it with Ctrl-C before the server confirmed it'));
  });
  try {
    await deliverEntry(client, entry, {
      readPhoto: (p) => bytes.get(p) as Uint8Array,
      checkpoint: () => {},
      onPhotoDone: progress.tick,
      ...(entry.force ? {} : { checkCar: refuseRepeat }),
    });
    return { entry };
  } catch (error) {
    entry.lastError = failureMessage(error);
    if (classifyFailure(error) === 'unreachable')
      return queue(`the API is unreachable (${networkCause(error) ?? entry.lastError})`);
    // Nothing acknowledged yet: the command fails as any other would, and nothing is queued.
    if (!entry.event?.result && !entry.photos.some((p) => p.photoId)) throw error;
    return { entry, failure: entry.lastError };
  } finally {
    stopWatching();
    progress.stop();
  }
}

/** Waiting entries this one must follow: any still-pending entry for the key, and stuck ones for the same car. */
function waitingAhead(store: QueueStore, entry: QueueEntry): number {
  return store
    .read()
    .entries.filter(
      (e) =>
        sameTarget(e.target, entry.target) &&
        (!e.attention || e.car.ref === entry.car.ref || (e.car.id !== undefined && e.car.id === entry.car.ref)),
    ).length;
}
