import { type V1Car, type VsfClient, VsfError } from '@vsf/sdk';
import { formatApiError } from '../handle-error.js';
import { carLabel, resolveCar, resolveSpot, resolveZone } from '../resolve-records.js';
import { classifyFailure, failureMessage } from './classify-failure.js';
import { markPhotosInSession } from './photos-in-session.js';
import type { PhotoRefusal, QueuedPhoto, QueueEntry } from './queue-entry.js';

export interface DeliveryHooks {
  /** The bytes to send for a photo: the in-memory snapshot on a live run, the queued copy on a flush. */
  readPhoto(photo: QueuedPhoto): Uint8Array | Promise<Uint8Array>;
  /** Persists the entry's progress; called after each acknowledged step. */
  checkpoint(): void;
  onPhotoDone?(photo: QueuedPhoto): void;
  /** Photo uploads at a time: 4 on a live run; a flush sends one at a time, so on a slow link each completes. */
  photoConcurrency?: number;
  /**
   * Called with the car as the server has it, on a live run before its event is sent: throws to refuse an
   * event that repeats what the car's state says (lib/offline-queue/refuse-repeat.ts).
   */
  checkCar?(car: V1Car, entry: QueueEntry): void;
}

const PHOTO_CONCURRENCY = 4;
/**
 * The server keeps idempotency keys for 24 h; after that a replayed key would run the write again. For an
 * entry older than this whose earlier attempt may have reached the server, delivered steps are found by
 * content first (the event by type, time and notes; a photo by name and size in the session).
 */
export const KEY_TRUST_MS = 20 * 3600_000;

const keysMayHaveExpired = (entry: QueueEntry, now = Date.now()) =>
  entry.attempts > 1 && now - Date.parse(entry.createdAt) > KEY_TRUST_MS;

async function findDeliveredEvent(client: VsfClient, carId: string, event: NonNullable<QueueEntry['event']>) {
  const at = Date.parse(event.body.occurredAt);
  for await (const e of client.cars.events.listAll(carId, { activityType: event.body.activityType }))
    if (Date.parse(e.occurredAt) === at && (e.notes ?? undefined) === event.body.notes) return e;
  return undefined;
}

async function adoptDeliveredPhotos(client: VsfClient, carId: string, sessionId: string, entry: QueueEntry) {
  const claimed = new Set(entry.photos.map((p) => p.photoId).filter(Boolean));
  for await (const photo of client.cars.photos.listAll(carId, { sessionId })) {
    if (claimed.has(photo.id)) continue;
    const mine = entry.photos.find(
      (p) => !p.photoId && !p.refused && p.filename === photo.filename && p.size === photo.sizeBytes,
    );
    if (mine) {
      mine.photoId = photo.id;
      claimed.add(photo.id);
    }
  }
}

/**
 * Runs an entry's remaining steps in order — resolve the car and place, the event, then each photo into the
 * event's session — with the idempotency keys fixed when it was planned, checkpointing after each
 * acknowledgement. A photo the server refuses for good is marked refused and the rest go on; any other
 * failure stops the delivery and is thrown, leaving the progress so far in `entry`.
 */
export async function deliverEntry(client: VsfClient, entry: QueueEntry, hooks: DeliveryHooks): Promise<void> {
  let resolved: V1Car | undefined;
  if (!entry.car.id) {
    resolved = await resolveCar(client, entry.car.ref);
    entry.car.id = resolved.id;
    entry.car.label = carLabel(resolved);
  }
  const carId = entry.car.id;
  if (entry.place && !entry.place.id) {
    const place =
      entry.place.kind === 'spot'
        ? await resolveSpot(client, entry.place.ref)
        : await resolveZone(client, entry.place.ref);
    entry.place.id = place.id;
    entry.place.name = place.name;
  }
  if (resolved && entry.event && !entry.event.result) hooks.checkCar?.(resolved, entry);
  const recheck = keysMayHaveExpired(entry);
  if (entry.event && !entry.event.result && recheck) {
    const found = await findDeliveredEvent(client, carId, entry.event);
    if (found) {
      entry.event.result = { id: found.id, sessionId: found.sessionId };
      hooks.checkpoint();
    }
  }
  if (entry.event && !entry.event.result) {
    const placeField = entry.place
      ? { [entry.place.kind === 'spot' ? 'parkingSpotId' : 'parkingZoneId']: entry.place.id }
      : {};
    const event = await client.cars.events.create(
      carId,
      { ...entry.event.body, ...placeField },
      { idempotencyKey: entry.event.idempotencyKey },
    );
    entry.event.result = { id: event.id, sessionId: event.sessionId };
    hooks.checkpoint();
  }
  const sessionId = entry.event?.result?.sessionId ?? entry.sessionId;
  if (!sessionId) throw new Error(`Queue entry ${entry.id} has no photo session`);
  if (recheck && entry.photos.some((p) => !p.photoId && !p.refused)) {
    await adoptDeliveredPhotos(client, carId, sessionId, entry);
    hooks.checkpoint();
  }
  // Into an existing session, photos it holds already are not sent again (`--force` sends them anyway).
  if (entry.operation === 'photos-upload' && !entry.force) {
    const present = await markPhotosInSession(client, carId, sessionId, entry.photos);
    hooks.checkpoint();
    for (const photo of present) hooks.onPhotoDone?.(photo);
  }

  const pending = entry.photos.filter((p) => !p.photoId && !p.refused);
  let stop: unknown;
  const worker = async () => {
    for (let photo = pending.shift(); photo && stop === undefined; photo = pending.shift()) {
      try {
        const uploaded = await client.cars.photos.upload(
          carId,
          { sessionId, file: await hooks.readPhoto(photo), filename: photo.filename },
          { idempotencyKey: photo.idempotencyKey },
        );
        photo.photoId = uploaded.id;
      } catch (error) {
        if (classifyFailure(error) !== 'permanent') {
          stop ??= error;
          return;
        }
        photo.refused = failureMessage(error);
        photo.refusal = photoRefusal(error);
      }
      hooks.checkpoint();
      hooks.onPhotoDone?.(photo);
    }
  };
  const workers = Math.min(hooks.photoConcurrency ?? PHOTO_CONCURRENCY, pending.length);
  await Promise.all(Array.from({ length: workers }, worker));
  if (stop !== undefined) throw stop;
}

/** A refusal with the server's field details, as the command's report and `--json` show it. */
function photoRefusal(error: unknown): PhotoRefusal {
  if (error instanceof VsfError)
    return {
      error: formatApiError(error, '    '),
      code: error.code ?? null,
      status: error.status ?? null,
      details: error.details ?? null,
    };
  return { error: failureMessage(error), code: null, status: null, details: null };
}

/** Photos the server refused for good, as `queue list` and the command report them. */
export const refusedPhotos = (entry: QueueEntry) => entry.photos.filter((p) => p.refused);
