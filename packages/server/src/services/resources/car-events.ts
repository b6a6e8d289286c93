import { randomUUID } from 'node:crypto';
import {
  carEventTime,
  type createCarEvent,
  type EndpointBody,
  placementOfCarEvent,
  unknownVehicleEventType,
  type V1CarEvent,
} from '@vsf/contract';
import { validationFailed } from '../../errors/api-http-error.js';
import { carEventsTable, eventTypesTable } from '../../repositories/tables.js';
import { applyPlacement, heldFieldScopesOr403, lockCar, planPlacement, refuseField } from '../car-placement.js';
import type { ServiceDeps } from '../service-deps.js';
import { TeamResource } from '../standard/team-resource.js';

/** A car's events; logging one moves the car. */
export class CarEvents extends TeamResource<V1CarEvent> {
  constructor(deps: ServiceDeps) {
    super(deps, 'cars.events');
  }

  /**
   * Logs the event and moves the car, all in one transaction, through the same placement as a car's own
   * location fields: the car's open stay ends, a new one starts in the spot or zone, and the car's
   * parking fields follow. A drop-off into a spot holding another car is a 409. A pick-up needs the parking
   * scope only when the car holds a spot or zone (`freesHeldPlace`, the spec's "when a spot or zone is assigned").
   */
  override async create(teamId: string, car: unknown, payload: unknown, freesHeldPlace?: unknown): Promise<V1CarEvent> {
    const body = payload as EndpointBody<typeof createCarEvent>;
    const carId = car as string;
    await this.parents(teamId, [carId]);
    const db = this.deps.db;
    const type = await eventTypesTable
      .scoped(db, teamId)
      .where({ 'event_types.value': body.activityType, 'event_types.scope': 'vehicle' })
      .first();
    if (!type) throw validationFailed([unknownVehicleEventType(body.activityType)]);
    const target = placementOfCarEvent(body, Boolean(type.requires_parking_spot), refuseField);
    const now = this.deps.now();
    const occurredAt = carEventTime(body.occurredAt, now, refuseField);
    return db.transaction(async (trx) => {
      const plan =
        target === undefined
          ? undefined
          : await planPlacement(trx, teamId, carId, target, {
              at: occurredAt,
              atLabel: 'occurredAt',
              sameIsNoop: false,
              freesHeldPlace: heldFieldScopesOr403(freesHeldPlace),
            });
      if (!plan) await lockCar(trx, teamId, carId);
      const event = await carEventsTable.insert(
        trx,
        teamId,
        {
          id: randomUUID(),
          carId,
          activityType: body.activityType,
          eventTypeId: type.id,
          parkingSpotId: plan?.target?.spot?.id ?? null,
          parkingZoneId: plan?.target?.zoneId ?? null,
          notes: body.notes ?? null,
          occurredAt: occurredAt.toISOString(),
          sessionId: randomUUID(),
        },
        now,
      );
      if (plan) await applyPlacement(trx, plan, now, event.id);
      return event;
    });
  }
}
