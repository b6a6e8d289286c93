import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { createClient, type GlobalOptions } from '../context.js';
import { networkCause } from '../network-cause.js';
import type { PhotoFile } from '../photo-files.js';
import { classifyFailure, failureMessage } from './classify-failure.js';
import { deliverEntry } from './deliver-entry.js';
import { photoProgress } from './photo-progress.js';
import type { QueuedPhoto, QueueEntry } from './queue-entry.js';
import { QUEUE_ENTRY_VERSION } from './queue-entry.js';
import { queueOnInterrupt } from './queue-on-interrupt.js';
import { QueueStore, sha256 } from './queue-store.js';
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
  const bytes = new Map<QueuedPhoto, Uint8Array>();
  const photos: QueuedPhoto[] = [];
  for (const file of files) {
    const data = new Uint8Array(await readFile(file.path));
    const photo: QueuedPhoto = {
      copy: '',
      source: file.path,
      filename: basename(file.path),
      size: data.byteLength,
      sha256: sha256(data),
      idempotencyKey: randomUUID(),
    };
    bytes.set(photo, data);
    photos.push(photo);
  }
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
