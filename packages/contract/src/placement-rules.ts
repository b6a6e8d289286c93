import { PICK_UP_ACTIVITY } from './endpoints/parking-field-scopes.js';
import { OCCURRED_AT_MAX_FUTURE_MS } from './schemas/car-event.js';

/**
 * The garage's request rules that need no stored state, written once for the reference server and the mock
 * (`@vsf/testing`), which each turn a refusal into their own 400 (`refuse` never returns).
 */
export interface FieldIssue {
  path: string;
  message: string;
}

export type RefuseField = (issue: FieldIssue) => never;

/**
 * Where a car goes: into a spot (and its zone), into a zone without a spot, or out of parking (`null`).
 * `keepSpotInZone`: only the zone was named, so a car already in a spot of that zone stays where it is.
 */
export type PlacementTarget =
  | { kind: 'spot'; parkingSpotId: string; parkingZoneId?: string | undefined }
  | { kind: 'zone'; parkingZoneId: string; keepSpotInZone?: boolean }
  | null;

/** A car body's `parkingSpotId`/`parkingZoneId` (PATCH semantics): undefined when neither was sent. */
export function placementFromCarFields(
  body: { parkingSpotId?: string | null | undefined; parkingZoneId?: string | null | undefined },
  refuse: RefuseField,
): PlacementTarget | undefined {
  const { parkingSpotId: spot, parkingZoneId: zone } = body;
  if (spot === undefined && zone === undefined) return undefined;
  if (spot) {
    if (zone === null) {
      refuse({
        path: 'parkingZoneId',
        message: 'A car in a spot is in that spot’s zone: send the zone’s id or leave parkingZoneId out',
      });
    }
    return { kind: 'spot', parkingSpotId: spot, parkingZoneId: zone };
  }
  if (zone) return { kind: 'zone', parkingZoneId: zone, keepSpotInZone: spot === undefined };
  return null;
}

/** A car event's placement: a spot or a zone (never both), out of parking for a pick-up, else none. */
export function placementOfCarEvent(
  body: { activityType: string; parkingSpotId?: string | undefined; parkingZoneId?: string | undefined },
  requiresParkingSpot: boolean,
  refuse: RefuseField,
): PlacementTarget | undefined {
  if (body.parkingSpotId && body.parkingZoneId) {
    refuse({ path: 'parkingSpotId', message: 'Send exactly one of parkingSpotId or parkingZoneId' });
  }
  const target: PlacementTarget | undefined = body.parkingSpotId
    ? { kind: 'spot', parkingSpotId: body.parkingSpotId }
    : body.parkingZoneId
      ? { kind: 'zone', parkingZoneId: body.parkingZoneId }
      : body.activityType === PICK_UP_ACTIVITY
        ? null
        : undefined;
  if (requiresParkingSpot && !target) {
    refuse({
      path: 'parkingSpotId',
      message: `A ${body.activityType} needs exactly one of parkingSpotId or parkingZoneId`,
    });
  }
  return target;
}

/** The refusal of an `activityType` the team has no vehicle event type for. */
export function unknownVehicleEventType(activityType: string): FieldIssue {
  return {
    path: 'activityType',
    message: `No vehicle event type "${activityType}"; see GET /event-types?scope=vehicle`,
  };
}

/** When a car event happened: `occurredAt`, else now; refused more than a few minutes ahead of `now`. */
export function carEventTime(occurredAt: string | undefined, now: Date, refuse: RefuseField): Date {
  const at = occurredAt ? new Date(occurredAt) : now;
  if (at.getTime() > now.getTime() + OCCURRED_AT_MAX_FUTURE_MS) {
    refuse({
      path: 'occurredAt',
      message: `occurredAt is more than ${OCCURRED_AT_MAX_FUTURE_MS / 60_000} minutes in the future (server time ${now.toISOString()}); log events when they happen`,
    });
  }
  return at;
}
