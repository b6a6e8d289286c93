import { type PlacementTarget, placementFromCarFields as placementOfCarFields, type RefuseField } from '@vsf/contract';
import { conflict, forbidden, validationFailed } from './mock-errors.js';
import type { MockRecord } from './mock-store.js';
import type { OperationContext } from './standard-operations.js';

/** Where a car goes: the contract's placement, as the server reads it. */
export type Placement = PlacementTarget;

/** The contract's request rules refuse through this: the mock's 400 naming the field, as the server's. */
export const refuseField: RefuseField = (issue) => {
  throw validationFailed([issue]);
};

/** A car body's `parkingSpotId`/`parkingZoneId` (PATCH semantics): undefined when neither was sent. */
export function placementFromCarFields(body: Record<string, unknown>): Placement | undefined {
  return placementOfCarFields(
    body as { parkingSpotId?: string | null | undefined; parkingZoneId?: string | null | undefined },
    refuseField,
  );
}

const openStayOf = (ctx: OperationContext, carId: string) =>
  [...ctx.team.table('parking.assignments').values()].find((a) => a.carId === carId && a.endedAt === null);

/**
 * Moves a car as the server's placement does (services/car-placement.ts): the spot or zone must be the
 * team's (400 naming the field), a spot free (409 naming the car in it), and the parking history consistent;
 * the open stay ends, the spot is freed, a new stay starts and the car's fields follow. Freeing a place the
 * car holds needs `write:parking` (a pick-up, a `null` place). Returns the stay's spot and zone.
 */
export function placeCar(
  ctx: OperationContext,
  carId: string,
  target: Placement,
  options: {
    at: Date;
    atLabel: string;
    sameIsNoop: boolean;
    carEventId?: string | null;
    /** Runs once the move is checked and before it is written (a car event is stored first, as on the server). */
    checked?: (place: { spotId: string | null; zoneId: string | null }) => void;
  },
): { spotId: string | null; zoneId: string | null } | undefined {
  const { store, team } = ctx;
  const open = openStayOf(ctx, carId);
  if (options.sameIsNoop && isCurrentPlace(open, target)) return undefined;
  if (open && !ctx.key.scopes.has('write:parking')) throw forbidden('Missing scope: write:parking');

  let spot: MockRecord | undefined;
  let zoneId: string | null = null;
  if (target?.kind === 'spot') {
    spot = store.find(team, 'parking.spots', target.parkingSpotId);
    if (!spot) throw validationFailed([{ path: 'parkingSpotId', message: 'Parking spot not found' }]);
    if (target.parkingZoneId && target.parkingZoneId.toLowerCase() !== spot.parkingZoneId) {
      throw validationFailed([
        {
          path: 'parkingZoneId',
          message: `Parking spot ${spot.name} is in another zone; send its zone (${spot.parkingZoneId}) or leave parkingZoneId out`,
        },
      ]);
    }
    if (spot.carId && spot.carId !== carId) {
      throw conflict(`Parking spot ${spot.name} is occupied by another car; pick that car up or move it first`, {
        carId: spot.carId as string,
      });
    }
    zoneId = spot.parkingZoneId as string;
  } else if (target) {
    if (!store.find(team, 'parking.zones', target.parkingZoneId)) {
      throw validationFailed([{ path: 'parkingZoneId', message: 'Parking zone not found' }]);
    }
    zoneId = target.parkingZoneId.toLowerCase();
  }
  checkHistory(ctx, carId, open, spot, target !== null, options);
  options.checked?.({ spotId: spot?.id ?? null, zoneId });

  if (open) {
    store.update(team, 'parking.assignments', open.id, { endedAt: options.at.toISOString() });
    if (open.parkingSpotId) store.update(team, 'parking.spots', open.parkingSpotId as string, { carId: null });
  }
  if (target) {
    store.insert(team, 'parking.assignments', {
      carId,
      parkingSpotId: spot?.id ?? null,
      parkingZoneId: zoneId,
      carEventId: options.carEventId ?? null,
      startedAt: options.at.toISOString(),
      endedAt: null,
    });
    if (spot) store.update(team, 'parking.spots', spot.id, { carId });
  }
  store.update(team, 'cars', carId, {
    parkingSpotId: spot?.id ?? null,
    parkingZoneId: zoneId,
    parkingSpot: (spot?.name as string | undefined) ?? null,
  });
  return { spotId: spot?.id ?? null, zoneId };
}

function isCurrentPlace(open: MockRecord | undefined, target: Placement): boolean {
  if (target === null) return open === undefined;
  if (!open) return false;
  if (target.kind === 'spot') return open.parkingSpotId === target.parkingSpotId.toLowerCase();
  if (target.keepSpotInZone) return open.parkingZoneId === target.parkingZoneId.toLowerCase();
  return open.parkingSpotId === null && open.parkingZoneId === target.parkingZoneId.toLowerCase();
}

function checkHistory(
  ctx: OperationContext,
  carId: string,
  open: MockRecord | undefined,
  spot: MockRecord | undefined,
  placing: boolean,
  options: { at: Date; atLabel: string },
): void {
  const { at } = options;
  const when = `${options.atLabel} (${at.toISOString()})`;
  if (open && at < new Date(open.startedAt as string)) {
    const started = new Date(open.startedAt as string).toISOString();
    throw conflict(
      `${when} is before the car’s current parking stay started (${started}); a stay cannot end before it starts`,
      { startedAt: started },
    );
  }
  if (!placing) return;
  const latestEnd = (field: 'carId' | 'parkingSpotId', id: string) =>
    [...ctx.team.table('parking.assignments').values()]
      .filter((a) => a[field] === id && a.endedAt !== null)
      .map((a) => new Date(a.endedAt as string))
      .sort((a, b) => b.getTime() - a.getTime())[0];
  const carEnded = latestEnd('carId', carId);
  if (carEnded && at < carEnded) {
    throw conflict(
      `${when} is before the car’s previous parking stay ended (${carEnded.toISOString()}); stays of a car cannot overlap`,
      { endedAt: carEnded.toISOString() },
    );
  }
  const spotEnded = spot ? latestEnd('parkingSpotId', spot.id) : undefined;
  if (spot && spotEnded && at < spotEnded) {
    throw conflict(
      `${when} is before the previous stay in parking spot ${spot.name} ended (${spotEnded.toISOString()}); stays in a spot cannot overlap`,
      { endedAt: spotEnded.toISOString() },
    );
  }
}
