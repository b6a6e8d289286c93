/** The on-disk format of one queued operation; bump the version when the meaning of a field changes. */
export const QUEUE_ENTRY_VERSION = 1;

export type QueuedOperation = 'dropoff' | 'pickup' | 'photos-upload';

export interface QueuedPhoto {
  /** File name of the copy inside the entry's directory. */
  copy: string;
  /** Where the user's file was when it was queued (for messages only; the copy is what is sent). */
  source: string;
  filename: string;
  size: number;
  sha256: string;
  idempotencyKey: string;
  /** Set once the server acknowledged it, or found it already in the session. */
  photoId?: string;
  /** The session held this photo already (same name, size and bytes): it was not sent again. */
  alreadyInSession?: true;
  /** Set when the server refused this photo for good (it is never resent): one line, for `queue list`. */
  refused?: string;
  /** The refusal as the server gave it: the message with its field details, code, status and details. */
  refusal?: PhotoRefusal;
}

export interface PhotoRefusal {
  error: string;
  code: string | null;
  status: number | null;
  details: unknown;
}

export interface QueueEntry {
  version: typeof QUEUE_ENTRY_VERSION;
  id: string;
  createdAt: string;
  operation: QueuedOperation;
  /** Only delivered with a key of this id to this server, so a queue never writes into another team. */
  target: { baseUrl: string; keyId: string };
  car: { ref: string; id?: string; label?: string };
  place?: { kind: 'spot' | 'zone'; ref: string; id?: string; name?: string };
  /** The car event; its body (occurredAt included) is fixed when planned, so every attempt sends the same request. */
  event?: {
    body: { activityType: 'drop_off' | 'pick_up'; notes?: string; occurredAt: string };
    idempotencyKey: string;
    result?: { id: string; sessionId: string };
  };
  /** The session `vsf photos upload --session` named. */
  sessionId?: string;
  /** `--force`: send photos even when the session holds them already. */
  force?: true;
  photos: QueuedPhoto[];
  attempts: number;
  lastError?: string;
  /** A permanent refusal: kept for the user to fix or drop, never retried by a flush. */
  attention?: { status?: number; message: string; at: string };
}

const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks a parsed entry.json; returns the reason it cannot be trusted, or undefined when it can. */
export function entryProblem(value: unknown, dirName: string): string | undefined {
  if (!isObject(value)) return 'not a JSON object';
  if (value.version !== QUEUE_ENTRY_VERSION)
    return `format version ${JSON.stringify(value.version)}, this vsf reads version ${QUEUE_ENTRY_VERSION}`;
  if (value.id !== dirName) return `its id ${JSON.stringify(value.id)} does not match its directory`;
  if (!['dropoff', 'pickup', 'photos-upload'].includes(value.operation as string)) return 'unknown operation';
  if (!isObject(value.target) || !isString(value.target.baseUrl) || !isString(value.target.keyId))
    return 'no target server and key';
  if (!isObject(value.car) || !isString(value.car.ref)) return 'no car';
  if (!isString(value.createdAt) || typeof value.attempts !== 'number') return 'no creation time or attempt count';
  if (value.event !== undefined) {
    const event = value.event;
    if (!isObject(event) || !isObject(event.body) || !isString(event.idempotencyKey)) return 'malformed event step';
  } else if (!isString(value.sessionId)) return 'neither an event nor a photo session';
  if (!Array.isArray(value.photos)) return 'no photo list';
  for (const photo of value.photos) {
    if (!isObject(photo) || !isString(photo.copy) || !isString(photo.sha256) || !isString(photo.idempotencyKey))
      return 'malformed photo step';
    if (photo.copy.includes('/') || photo.copy.includes('\\') || photo.copy.startsWith('.'))
      return 'a photo copy outside its directory';
  }
  return undefined;
}
