import { randomUUID } from 'node:crypto';
import { type PlacementTarget, placementFromCarFields as placementOfCarFields, type RefuseField } from '@vsf/contract';
import { conflict, forbidden, notFound, validationFailed } from '../errors/api-http-error.js';
import { carsTable, parkingAssignmentsTable, parkingSpotsTable, parkingZonesTable } from '../repositories/tables.js';
import type { Executor } from '../repositories/team-scoped-table.js';
import { mapConflicts } from './standard/constraint-conflicts.js';

export type { PlacementTarget };

/**
 * Requires the scopes of what a request frees only if the record holds it (`write:parking` for a pick-up):
 * a placement calls it when the car it moves holds a spot or zone, before it writes anything.
 */
export type HeldFieldScopes = () => void;

/**
 * The check a service was handed, or one that refuses: a caller that did not say what its key may do
 * (a new caller of a service) cannot free a place, rather than free it unchecked.
 */
export function heldFieldScopesOr403(given: unknown): HeldFieldScopes {
  if (typeof given === 'function') return given as HeldFieldScopes;
  return () => {
    throw forbidden('Missing scope: write:parking');
  };
}

export interface PlacementOptions {
  /** When the car arrives or leaves: the event's `occurredAt`, or now. */
  at: Date;
  /** How an error names `at`: `occurredAt` for an event, `now` for a car's own fields. */
  atLabel: string;
  /** A car PATCH that repeats the car's current place changes nothing; a drop-off always starts a new stay. */
  sameIsNoop: boolean;
  /** Called when the move ends a stay the car holds (a pick-up, a `null` place, a move elsewhere). */
  freesHeldPlace: HeldFieldScopes;
}

interface OpenStay {
  id: string;
  parking_spot_id: string | null;
  parking_zone_id: string;
  started_at: Date | string;
}

/** A checked placement, with the car and every spot it touches locked until the transaction ends. */
export interface PlacementPlan {
  teamId: string;
  carId: string;
  at: Date;
  open: OpenStay | undefined;
  /** `undefined`: nothing to do. */
  target: { spot: { id: string; name: string } | null; zoneId: string } | null | undefined;
}

/**
 * Locks the car's row: every write that moves a car takes this lock first, so moves of one car run one
 * after the other.
 */
export async function lockCar(trx: Executor, teamId: string, carId: string): Promise<void> {
  const car = await carsTable.scoped(trx, teamId).where('cars.id', carId).forUpdate().first('cars.id');
  if (!car) throw notFound('Car');
}

/** The contract's request rules (placement-rules.ts) refuse through this: the API's 400 naming the field. */
export const refuseField: RefuseField = (issue) => {
  throw validationFailed([issue]);
};

/**
 * The car's `parkingSpotId`/`parkingZoneId` as sent in a car body (PATCH semantics: absent fields keep
 * their value): `undefined` when neither was sent.
 */
export function placementFromCarFields(body: {
  parkingSpotId?: string | null | undefined;
  parkingZoneId?: string | null | undefined;
}): PlacementTarget | undefined {
  return placementOfCarFields(body, refuseField);
}

/**
 * Checks a move of a car under the parking rules, locking the car and then the spots it leaves and
 * takes (in id order, so two moves never wait on each other in a circle): the spot or zone must be the
 * team's own (400 naming the field), the spot free (409), and the parking history stays consistent — the
 * stay it ends cannot end before it started, and the new stay cannot start before an earlier stay of the
 * car or of the spot ended (409). Nothing is written until {@link applyPlacement}.
 */
export async function planPlacement(
  trx: Executor,
  teamId: string,
  carId: string,
  target: PlacementTarget,
  options: PlacementOptions,
): Promise<PlacementPlan> {
  await lockCar(trx, teamId, carId);
  const open: OpenStay | undefined = await parkingAssignmentsTable
    .scoped(trx, teamId)
    .where('parking_assignments.car_id', carId)
    .whereNull('parking_assignments.ended_at')
    .first();
  const plan: PlacementPlan = { teamId, carId, at: options.at, open, target: undefined };
  if (options.sameIsNoop && isCurrentPlace(open, target)) return plan;
  // Ending the car's stay frees a place; a car that holds none frees nothing, so needs no parking scope.
  if (open) options.freesHeldPlace();

  const spotIds = [
    ...new Set(
      [target?.kind === 'spot' ? target.parkingSpotId : null, open?.parking_spot_id].filter((id): id is string => !!id),
    ),
  ];
  const spots = new Map<string, { id: string; name: string; parkingZoneId: string; carId: string | null }>();
  for (const id of spotIds.sort()) {
    const spot = await parkingSpotsTable.findById(trx, teamId, id, { forUpdate: true });
    if (spot) spots.set(id, spot);
  }

  let resolved: PlacementPlan['target'] = null;
  if (target?.kind === 'spot') {
    const spot = spots.get(target.parkingSpotId);
    if (!spot) throw validationFailed([{ path: 'parkingSpotId', message: 'Parking spot not found' }]);
    if (target.parkingZoneId && target.parkingZoneId !== spot.parkingZoneId) {
      throw validationFailed([
        {
          path: 'parkingZoneId',
          message: `Parking spot ${spot.name} is in another zone; send its zone (${spot.parkingZoneId}) or leave parkingZoneId out`,
        },
      ]);
    }
    if (spot.carId && spot.carId !== carId) {
      throw conflict(`Parking spot ${spot.name} is occupied by another car; pick that car up or move it first`, {
        carId: spot.carId,
      });
    }
    resolved = { spot: { id: spot.id, name: spot.name }, zoneId: spot.parkingZoneId };
  } else if (target) {
    if (!(await parkingZonesTable.exists(trx, teamId, target.parkingZoneId))) {
      throw validationFailed([{ path: 'parkingZoneId', message: 'Parking zone not found' }]);
    }
    resolved = { spot: null, zoneId: target.parkingZoneId };
  }

  await checkHistory(trx, plan, resolved, options);
  plan.target = resolved;
  return plan;
}

/** Ends the car's open stay, frees its spot, starts the new stay and points the car's fields at it. */
export async function applyPlacement(
  trx: Executor,
  plan: PlacementPlan,
  now: Date,
  carEventId: string | null = null,
): Promise<void> {
  const { teamId, carId, open, target, at } = plan;
  if (target === undefined) return;
  // The row locks make a conflict unreachable for writers that go through here; the unique indexes (one
  // car per spot, one active stay per spot and per car) catch anything that does not.
  const taken = 'The parking spot was taken by another car at the same time; list free spots and retry';
  await mapConflicts({ duplicate: taken }, async () => {
    if (open) {
      await parkingAssignmentsTable.update(trx, teamId, open.id, { endedAt: at.toISOString() }, now);
      if (open.parking_spot_id) await parkingSpotsTable.update(trx, teamId, open.parking_spot_id, { carId: null }, now);
    }
    if (target) {
      await parkingAssignmentsTable.insert(
        trx,
        teamId,
        {
          id: randomUUID(),
          carId,
          parkingSpotId: target.spot?.id ?? null,
          parkingZoneId: target.zoneId,
          carEventId,
          startedAt: at.toISOString(),
          endedAt: null,
        },
        now,
      );
      if (target.spot) await parkingSpotsTable.update(trx, teamId, target.spot.id, { carId }, now);
    }
    await carsTable.update(
      trx,
      teamId,
      carId,
      {
        parkingSpotId: target?.spot?.id ?? null,
        parkingZoneId: target?.zoneId ?? null,
        parkingSpot: target?.spot?.name ?? null,
      },
      now,
    );
  });
}

function isCurrentPlace(open: OpenStay | undefined, target: PlacementTarget): boolean {
  if (target === null) return open === undefined;
  if (!open) return false;
  if (target.kind === 'spot') return open.parking_spot_id === target.parkingSpotId;
  if (target.keepSpotInZone) return open.parking_zone_id === target.parkingZoneId;
  return open.parking_spot_id === null && open.parking_zone_id === target.parkingZoneId;
}

async function checkHistory(
  trx: Executor,
  plan: PlacementPlan,
  target: PlacementPlan['target'],
  options: PlacementOptions,
): Promise<void> {
  const at = options.at;
  const when = `${options.atLabel} (${at.toISOString()})`;
  if (plan.open) {
    const started = new Date(plan.open.started_at);
    if (at < started) {
      throw conflict(
        `${when} is before the car’s current parking stay started (${started.toISOString()}); a stay cannot end before it starts`,
        { startedAt: started.toISOString() },
      );
    }
  }
  if (!target) return;
  const latestEnd = async (column: 'car_id' | 'parking_spot_id', id: string) => {
    const row = await parkingAssignmentsTable
      .scoped(trx, plan.teamId)
      .where(`parking_assignments.${column}`, id)
      .whereNotNull('parking_assignments.ended_at')
      .max({ ended: 'parking_assignments.ended_at' })
      .first();
    return row?.ended ? new Date(row.ended) : undefined;
  };
  const carEnded = await latestEnd('car_id', plan.carId);
  if (carEnded && at < carEnded) {
    throw conflict(
      `${when} is before the car’s previous parking stay ended (${carEnded.toISOString()}); stays of a car cannot overlap`,
      { endedAt: carEnded.toISOString() },
    );
  }
  if (target.spot) {
    const spotEnded = await latestEnd('parking_spot_id', target.spot.id);
    if (spotEnded && at < spotEnded) {
      throw conflict(
        `${when} is before the previous stay in parking spot ${target.spot.name} ended (${spotEnded.toISOString()}); stays in a spot cannot overlap`,
        { endedAt: spotEnded.toISOString() },
      );
    }
  }
}
