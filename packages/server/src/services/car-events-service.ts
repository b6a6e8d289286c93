import { randomUUID } from 'node:crypto';
import type { createCarEvent, EndpointBody, EndpointQuery, listCarEvents, V1CarEvent } from '@vsf/contract';
import { conflict, notFound, validationFailed } from '../errors/api-http-error.js';
import {
  carEventsTable,
  parkingAssignmentsTable,
  parkingSpotsTable,
  parkingZonesTable,
} from '../repositories/facility-tables.js';
import { carsTable, eventTypesTable } from '../repositories/tables.js';
import type { Executor, ListResult } from '../repositories/team-scoped-table.js';
import { type AuthContext, requireScopes } from './auth-service.js';
import type { ServiceDeps } from './service-deps.js';

/** The default event type that takes a car out of the facility. */
export const PICK_UP = 'pick_up';
const UNIQUE_VIOLATION = '23505';

export class CarEventsService {
  constructor(private readonly deps: ServiceDeps) {}

  async list(
    teamId: string,
    carId: string,
    query: EndpointQuery<typeof listCarEvents>,
  ): Promise<ListResult<V1CarEvent>> {
    if (!(await carsTable.exists(this.deps.db, teamId, carId))) throw notFound('Car');
    return carEventsTable.list(this.deps.db, teamId, query, (q) => {
      q.where('car_events.car_id', carId);
      if (query.activityType) q.where('car_events.activity_type', query.activityType);
    });
  }

  /**
   * Logs the event and moves the car, all in one transaction: the car's open stay ends, a new one
   * starts in the spot or zone, and the car's parking fields follow. Rows are locked in a fixed order
   * (car, then spot) so two drop-offs into one spot serialize: one wins, the other gets 409.
   */
  async create(auth: AuthContext, carId: string, body: EndpointBody<typeof createCarEvent>): Promise<V1CarEvent> {
    const teamId = auth.teamId;
    const db = this.deps.db;
    if (!(await carsTable.exists(db, teamId, carId))) throw notFound('Car');
    const type = await eventTypesTable
      .scoped(db, teamId)
      .where({ 'event_types.value': body.activityType, 'event_types.scope': 'vehicle' })
      .first();
    if (!type) {
      throw validationFailed([
        {
          path: 'activityType',
          message: `No vehicle event type "${body.activityType}"; see GET /event-types?scope=vehicle`,
        },
      ]);
    }
    const placement = body.parkingSpotId ?? body.parkingZoneId;
    if (body.parkingSpotId && body.parkingZoneId) {
      throw validationFailed([
        { path: 'parkingSpotId', message: 'Send exactly one of parkingSpotId or parkingZoneId' },
      ]);
    }
    if (type.requires_parking_spot && !placement) {
      throw validationFailed([
        {
          path: 'parkingSpotId',
          message: `A ${body.activityType} needs exactly one of parkingSpotId or parkingZoneId`,
        },
      ]);
    }
    if (placement) requireScopes(auth, { all: ['write:parking'] });

    const now = this.deps.now();
    const occurredAt = body.occurredAt ? new Date(body.occurredAt) : now;
    try {
      return await db.transaction(async (trx) => {
        await carsTable.scoped(trx, teamId).where('cars.id', carId).forUpdate().first('cars.id');
        let spot: { id: string; parkingZoneId: string; name: string; carId: string | null } | undefined;
        let zoneId: string | undefined = body.parkingZoneId;
        if (body.parkingSpotId) {
          spot = await parkingSpotsTable.findById(trx, teamId, body.parkingSpotId, { forUpdate: true });
          if (!spot) throw validationFailed([{ path: 'parkingSpotId', message: 'Parking spot not found' }]);
          if (spot.carId && spot.carId !== carId)
            throw conflict(`Parking spot ${spot.name} is occupied by another car`, { carId: spot.carId });
          zoneId = spot.parkingZoneId;
        } else if (zoneId && !(await parkingZonesTable.exists(trx, teamId, zoneId))) {
          throw validationFailed([{ path: 'parkingZoneId', message: 'Parking zone not found' }]);
        }

        const event = await carEventsTable.insert(
          trx,
          teamId,
          {
            id: randomUUID(),
            carId,
            activityType: body.activityType,
            eventTypeId: type.id,
            parkingSpotId: body.parkingSpotId ?? null,
            parkingZoneId: zoneId ?? null,
            notes: body.notes ?? null,
            occurredAt: occurredAt.toISOString(),
            sessionId: randomUUID(),
          },
          now,
        );
        if (zoneId || body.activityType === PICK_UP) await this.endStay(trx, teamId, carId, occurredAt, now);
        if (zoneId) {
          await parkingAssignmentsTable.insert(
            trx,
            teamId,
            {
              id: randomUUID(),
              carId,
              parkingSpotId: spot?.id ?? null,
              parkingZoneId: zoneId,
              carEventId: event.id,
              startedAt: occurredAt.toISOString(),
              endedAt: null,
            },
            now,
          );
          if (spot) await parkingSpotsTable.update(trx, teamId, spot.id, { carId }, now);
          await carsTable.update(
            trx,
            teamId,
            carId,
            { parkingSpotId: spot?.id ?? null, parkingZoneId: zoneId, parkingSpot: spot?.name ?? null },
            now,
          );
        } else if (body.activityType === PICK_UP) {
          await carsTable.update(
            trx,
            teamId,
            carId,
            { parkingSpotId: null, parkingZoneId: null, parkingSpot: null },
            now,
          );
        }
        return event;
      });
    } catch (error) {
      // Two writers raced past the row locks (a new spot row, say): the unique indexes still hold.
      if ((error as { code?: string }).code === UNIQUE_VIOLATION)
        throw conflict('The parking spot was taken by another car at the same time');
      throw error;
    }
  }

  /** Ends the car's open stay and frees its spot. */
  private async endStay(trx: Executor, teamId: string, carId: string, at: Date, now: Date) {
    const open = await parkingAssignmentsTable
      .scoped(trx, teamId)
      .where('parking_assignments.car_id', carId)
      .whereNull('parking_assignments.ended_at')
      .first();
    if (!open) return;
    await parkingAssignmentsTable.update(trx, teamId, open.id, { endedAt: at.toISOString() }, now);
    if (open.parking_spot_id) await parkingSpotsTable.update(trx, teamId, open.parking_spot_id, { carId: null }, now);
  }
}
