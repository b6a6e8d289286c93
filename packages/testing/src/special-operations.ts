import {
  addressOf,
  type CommunicationChannel,
  carEventTime,
  checkImageBytes,
  DEFAULT_EVENT_TYPES,
  type DraftContent,
  draftInThread,
  PHOTO_MAX_BYTES,
  placementOfCarEvent,
  unknownVehicleEventType,
  type V1CommunicationThread,
  type V1Customer,
} from '@vsf/contract';
import { conflict, MockHttpError, notImplemented, validationFailed } from './mock-errors.js';
import type { MockRecord } from './mock-store.js';
import { placeCar, placementFromCarFields, refuseField } from './parking-rules.js';
import {
  checkParents,
  checkReferences,
  create,
  findOwn,
  list,
  type OperationContext,
  remove,
  update,
} from './standard-operations.js';

type Operation = (ctx: OperationContext) => unknown;

const isTrue = (value: unknown) => value === true;

const same = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();

/** Deletes a record's children with it (a campaign's audiences and steps, a social event's RSVPs). */
function cascade(ctx: OperationContext, field: string, namespaces: readonly string[]) {
  const record = findOwn(ctx);
  for (const namespace of namespaces) {
    for (const child of [...ctx.team.table(namespace).values()]) {
      if (child[field] === record.id) ctx.store.remove(ctx.team, namespace, child.id);
    }
  }
  return remove(ctx);
}

function customerWrite(ctx: OperationContext) {
  const { restore, deletedAt, ...fields } = ctx.body;
  const changes: Record<string, unknown> = { ...fields };
  if (restore === true || deletedAt === null) changes.deletedAt = null;
  else if (typeof deletedAt === 'string') changes.deletedAt = new Date(deletedAt).toISOString();
  return changes;
}

function carWrite(ctx: OperationContext, created: boolean) {
  const { parkingSpotId: _spot, parkingZoneId: _zone, ...fields } = ctx.body;
  const placement = placementFromCarFields(ctx.body);
  checkReferences(ctx, ['customerId', 'locationId']);
  const at = ctx.store.clock.now();
  const car = created
    ? create({ ...ctx, body: fields }).data
    : update({ ...ctx, body: fields, endpoint: { ...ctx.endpoint, references: [] } }).data;
  if (placement === undefined) return { data: car };
  placeCar(ctx, car.id, placement, { at, atLabel: 'now', sameIsNoop: true });
  return { data: structuredClone(ctx.store.find(ctx.team, 'cars', car.id)) };
}

function createCarEvent(ctx: OperationContext) {
  checkParents(ctx);
  const carId = (ctx.params.carId as string).toLowerCase();
  const body = ctx.body as {
    activityType: string;
    parkingSpotId?: string;
    parkingZoneId?: string;
    notes?: string;
    occurredAt?: string;
  };
  const type = [...ctx.team.table('eventTypes').values()].find(
    (t) => t.value === body.activityType && t.scope === 'vehicle',
  );
  if (!type) throw validationFailed([unknownVehicleEventType(body.activityType)]);
  const requiresSpot = Boolean((type.config as { requiresParkingSpot?: boolean }).requiresParkingSpot);
  const target = placementOfCarEvent(body, requiresSpot, refuseField);
  const occurredAt = carEventTime(body.occurredAt, ctx.store.clock.now(), refuseField);
  const carEventId = crypto.randomUUID();
  const store = (place: { spotId: string | null; zoneId: string | null } | undefined) =>
    ctx.store.insert(ctx.team, 'cars.events', {
      id: carEventId,
      carId,
      activityType: body.activityType,
      eventTypeId: type.id,
      parkingSpotId: place?.spotId ?? null,
      parkingZoneId: place?.zoneId ?? null,
      notes: body.notes ?? null,
      occurredAt: occurredAt.toISOString(),
      sessionId: crypto.randomUUID(),
    });
  let event: MockRecord | undefined;
  if (target !== undefined) {
    const checked = (place: { spotId: string | null; zoneId: string | null }) => {
      event = store(place);
    };
    placeCar(ctx, carId, target, { at: occurredAt, atLabel: 'occurredAt', sameIsNoop: false, carEventId, checked });
  }
  return { data: event ?? store(undefined) };
}

/** A photo joins a session of one of this car's events (an appointment's sessions are not modelled). */
function createCarPhoto(ctx: OperationContext) {
  checkParents(ctx);
  const carId = (ctx.params.carId as string).toLowerCase();
  const body = ctx.body as { sessionId: string; filename: string; contentType: string; base64?: string };
  if (body.base64 === undefined) throw notImplemented(ctx.endpoint.operationId, 'with a sourceUrl');
  const ofAppointment = [...ctx.team.table('appointments').values()].some((a) => same(a.sessionId, body.sessionId));
  if (ofAppointment) throw notImplemented(ctx.endpoint.operationId, "with an appointment's sessionId");
  const session = [...ctx.team.table('cars.events').values()].some(
    (e) => e.carId === carId && same(e.sessionId, body.sessionId),
  );
  if (!session) {
    throw validationFailed([
      {
        path: 'sessionId',
        message:
          'Not a session of this car; use the sessionId of one of its events, or of an appointment for this car (set its carId first)',
      },
    ]);
  }
  const bytes = decodeBase64(body.base64);
  const checked = checkImageBytes(bytes, body.contentType);
  if (checked.problem) throw validationFailed([checked.problem]);
  const id = crypto.randomUUID();
  return {
    data: ctx.store.insert(ctx.team, 'cars.photos', {
      id,
      carId,
      sessionId: body.sessionId.toLowerCase(),
      filename: body.filename,
      contentType: checked.contentType,
      sizeBytes: bytes.byteLength,
      url: `/api/media/${id}`,
    }),
  };
}

function decodeBase64(text: string): Uint8Array {
  const clean = text
    .replace(/^data:[^,]*,/, '')
    .replace(/\s+/g, '')
    .replace(/-/g, '+')
    .replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) throw validationFailed([{ path: 'base64', message: 'Not valid base64' }]);
  const size = Math.floor((clean.replace(/=+$/, '').length * 3) / 4);
  if (size > PHOTO_MAX_BYTES) {
    throw new MockHttpError(
      413,
      'payload_too_large',
      `The image is ${size} bytes; the limit is ${PHOTO_MAX_BYTES} (3 MiB)`,
    );
  }
  return Uint8Array.from(atob(clean.padEnd(Math.ceil(clean.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
}

/** A draft, addressed to the customer's address on the thread's channel, or to none while they have none. */
function createMessage(ctx: OperationContext) {
  checkParents(ctx);
  const body = ctx.body as Record<string, unknown> & { mediaUrls?: string[] };
  if (body.send === true) throw notImplemented(ctx.endpoint.operationId, 'with send: true (delivery)');
  if (body.mediaUrls?.some((url) => !url.startsWith('https://'))) {
    throw notImplemented(ctx.endpoint.operationId, 'with a team media path in mediaUrls');
  }
  const thread = ctx.store.find(ctx.team, 'communicationThreads', ctx.params.threadId as string) as MockRecord;
  const customer = ctx.store.find(ctx.team, 'customers', thread.customerId as string);
  const to = (customer && addressOf(customer as V1Customer, thread.channel as CommunicationChannel)) ?? null;
  const message = ctx.store.insert(
    ctx.team,
    'communicationThreads.messages',
    draftInThread(thread as V1CommunicationThread, body as DraftContent, to),
  );
  ctx.store.update(ctx.team, 'communicationThreads', thread.id, { lastMessageAt: message.createdAt });
  return { data: message };
}

function draftOnly(ctx: OperationContext, verb: 'edit' | 'delete') {
  const message = findOwn(ctx);
  if (message.status === 'draft') return;
  throw conflict(
    verb === 'edit'
      ? `The message is ${message.status}, not a draft; write a new message instead`
      : `The message is ${message.status}; only drafts can be deleted, sent messages are records`,
  );
}

function spotWrite(ctx: OperationContext, created: boolean) {
  const name = ctx.body.name;
  const spots = [...ctx.team.table('parking.spots').values()];
  const own = created ? undefined : findOwn(ctx);
  if (name !== undefined && spots.some((s) => s.name === name && s.id !== own?.id)) {
    if (created) checkReferences(ctx);
    throw conflict('The team already has a spot with this name');
  }
  if (!created) {
    checkReferences(ctx);
    if (own?.carId && ctx.body.parkingZoneId && !same(ctx.body.parkingZoneId, own.parkingZoneId)) {
      throw conflict('A car is parked in this spot; move the car before moving the spot to another zone');
    }
    const updated = update(ctx);
    // The car's copy of the spot's name follows it.
    if (own?.carId && name !== undefined && name !== own.name) {
      ctx.store.update(ctx.team, 'cars', own.carId as string, { parkingSpot: name });
    }
    return updated;
  }
  return create(ctx, { carId: null });
}

function createEventType(ctx: OperationContext) {
  if ([...ctx.team.table('eventTypes').values()].some((t) => t.value === ctx.body.value)) {
    throw conflict(`The team already has an event type "${String(ctx.body.value)}"`);
  }
  const { config, ...fields } = ctx.body as { config?: { requiresParkingSpot: boolean } };
  return create({ ...ctx, body: fields }, { config: config ?? { requiresParkingSpot: false }, isDefault: false });
}

const inFolder =
  (field: string) =>
  (record: MockRecord, value: unknown): boolean =>
    value === undefined || (value === 'root' ? record[field] === null : same(record[field], value));

/** Folders in folders (the parent's checks, no cycles) are not modelled. */
const folderParent = (ctx: OperationContext) => {
  throw notImplemented(ctx.endpoint.operationId, 'with a parentId');
};

/** Operations with rules of their own; every other implemented one is the standard operation of its kind. */
export const SPECIAL_OPERATIONS: Readonly<Record<string, Operation>> = {
  listCustomers: (ctx) =>
    list(ctx, {
      // An incremental sync (`updatedAfter`) sees deletions unless it asks otherwise.
      includeDeleted: (record, value, query) =>
        Boolean(value ?? query.updatedAfter !== undefined) || record.deletedAt === null,
      email: (record, value) => value === undefined || same(record.email, value),
    }),
  updateCustomer: (ctx) => update(ctx, customerWrite(ctx)),
  deleteCustomer: (ctx) => {
    const customer = findOwn(ctx);
    if (!customer.deletedAt)
      ctx.store.update(ctx.team, 'customers', customer.id, { deletedAt: ctx.store.clock.now().toISOString() });
    return { data: { id: customer.id, deleted: true } };
  },
  createCar: (ctx) => carWrite(ctx, true),
  updateCar: (ctx) => {
    findOwn(ctx);
    return carWrite(ctx, false);
  },
  createCarEvent,
  createCarPhoto,
  createEventType,
  listParkingSpots: (ctx) =>
    list(ctx, {
      occupied: (record, value) => value === undefined || (value ? record.carId !== null : record.carId === null),
    }),
  listParkingAssignments: (ctx) =>
    list(ctx, {
      active: (record, value) =>
        value === undefined || (isTrue(value) ? record.endedAt === null : record.endedAt !== null),
    }),
  createParkingSpot: (ctx) => spotWrite(ctx, true),
  updateParkingSpot: (ctx) => spotWrite(ctx, false),
  deleteParkingSpot: (ctx) => {
    if (findOwn(ctx).carId) throw conflict('A car is parked in this spot; pick it up or move it first');
    return remove(ctx);
  },
  createCommunicationMessage: createMessage,
  updateCommunicationMessage: (ctx) => {
    draftOnly(ctx, 'edit');
    return update(ctx);
  },
  deleteCommunicationMessage: (ctx) => {
    draftOnly(ctx, 'delete');
    return remove(ctx);
  },
  // `root` means outside any folder.
  listAssetFolders: (ctx) => list(ctx, { parentId: inFolder('parentId') }),
  listMarketingAssets: (ctx) => list(ctx, { folderId: inFolder('folderId') }),
  createAssetFolder: (ctx) => (ctx.body.parentId ? folderParent(ctx) : create(ctx)),
  updateAssetFolder: (ctx) => (ctx.body.parentId ? folderParent(ctx) : update(ctx)),
  deleteCampaign: (ctx) => cascade(ctx, 'campaignId', ['marketing.campaigns.audiences', 'marketing.campaigns.content']),
  deleteSocialEvent: (ctx) =>
    cascade(ctx, 'eventId', [
      'marketing.socialEvents.rsvps',
      'marketing.socialEvents.invites',
      'marketing.socialEvents.rsvpOptions',
    ]),
};

/** Seeds a new team as the server does: the default event types. */
export function seedTeamDefaults(ctx: Pick<OperationContext, 'store' | 'team'>): void {
  for (const type of DEFAULT_EVENT_TYPES) {
    ctx.store.insert(ctx.team, 'eventTypes', {
      value: type.value,
      name: type.name,
      scope: type.scope,
      config: { requiresParkingSpot: type.requiresParkingSpot },
      isDefault: true,
    });
  }
}
