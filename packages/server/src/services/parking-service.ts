import { randomUUID } from 'node:crypto';
import type {
  createParkingSpot,
  createParkingZone,
  EndpointBody,
  EndpointQuery,
  listParkingAssignments,
  listParkingSpots,
  listParkingZones,
  updateParkingSpot,
  updateParkingZone,
  V1ParkingAssignment,
  V1ParkingSpot,
  V1ParkingZone,
} from '@vsf/contract';
import { conflict, notFound } from '../errors/api-http-error.js';
import { parkingAssignmentsTable, parkingSpotsTable, parkingZonesTable } from '../repositories/facility-tables.js';
import { locationsTable } from '../repositories/tables.js';
import type { ListResult } from '../repositories/team-scoped-table.js';
import { checkReferences } from './check-references.js';
import type { ServiceDeps } from './service-deps.js';

const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

export class ParkingService {
  constructor(private readonly deps: ServiceDeps) {}

  listZones(teamId: string, query: EndpointQuery<typeof listParkingZones>): Promise<ListResult<V1ParkingZone>> {
    return parkingZonesTable.list(this.deps.db, teamId, query, (q) => {
      if (query.locationId) q.where('parking_zones.location_id', query.locationId);
      if (query.isActive !== undefined) q.where('parking_zones.is_active', query.isActive);
    });
  }

  async getZone(teamId: string, id: string): Promise<V1ParkingZone> {
    const zone = await parkingZonesTable.findById(this.deps.db, teamId, id);
    if (!zone) throw notFound('Parking zone');
    return zone;
  }

  async createZone(teamId: string, body: EndpointBody<typeof createParkingZone>): Promise<V1ParkingZone> {
    await checkReferences(this.deps.db, teamId, [
      { path: 'locationId', id: body.locationId, table: locationsTable, resource: 'Location' },
    ]);
    return parkingZonesTable.insert(
      this.deps.db,
      teamId,
      { isActive: true, ...body, id: randomUUID() },
      this.deps.now(),
    );
  }

  async updateZone(teamId: string, id: string, body: EndpointBody<typeof updateParkingZone>): Promise<V1ParkingZone> {
    if (!(await parkingZonesTable.exists(this.deps.db, teamId, id))) throw notFound('Parking zone');
    await checkReferences(this.deps.db, teamId, [
      { path: 'locationId', id: body.locationId, table: locationsTable, resource: 'Location' },
    ]);
    return (await parkingZonesTable.update(this.deps.db, teamId, id, body, this.deps.now())) as V1ParkingZone;
  }

  async deleteZone(teamId: string, id: string) {
    try {
      if (!(await parkingZonesTable.delete(this.deps.db, teamId, id))) throw notFound('Parking zone');
    } catch (error) {
      if ((error as { code?: string }).code === FOREIGN_KEY_VIOLATION) {
        throw conflict('The zone still has spots, cars or history; set isActive to false instead');
      }
      throw error;
    }
    return { id, deleted: true as const };
  }

  listSpots(teamId: string, query: EndpointQuery<typeof listParkingSpots>): Promise<ListResult<V1ParkingSpot>> {
    return parkingSpotsTable.list(this.deps.db, teamId, query, (q) => {
      if (query.parkingZoneId) q.where('parking_spots.parking_zone_id', query.parkingZoneId);
      if (query.name) q.where('parking_spots.name', query.name);
      if (query.occupied === true) q.whereNotNull('parking_spots.car_id');
      if (query.occupied === false) q.whereNull('parking_spots.car_id');
    });
  }

  async getSpot(teamId: string, id: string): Promise<V1ParkingSpot> {
    const spot = await parkingSpotsTable.findById(this.deps.db, teamId, id);
    if (!spot) throw notFound('Parking spot');
    return spot;
  }

  async createSpot(teamId: string, body: EndpointBody<typeof createParkingSpot>): Promise<V1ParkingSpot> {
    await checkReferences(this.deps.db, teamId, [
      { path: 'parkingZoneId', id: body.parkingZoneId, table: parkingZonesTable, resource: 'Parking zone' },
    ]);
    return this.uniqueName(() =>
      parkingSpotsTable.insert(this.deps.db, teamId, { isActive: true, ...body, id: randomUUID() }, this.deps.now()),
    );
  }

  async updateSpot(teamId: string, id: string, body: EndpointBody<typeof updateParkingSpot>): Promise<V1ParkingSpot> {
    if (!(await parkingSpotsTable.exists(this.deps.db, teamId, id))) throw notFound('Parking spot');
    await checkReferences(this.deps.db, teamId, [
      { path: 'parkingZoneId', id: body.parkingZoneId, table: parkingZonesTable, resource: 'Parking zone' },
    ]);
    return this.uniqueName(() =>
      this.deps.db.transaction(async (trx) => {
        // Locked as a placement locks it: a car cannot arrive between the check and the move.
        const spot = await parkingSpotsTable.findById(trx, teamId, id, { forUpdate: true });
        if (!spot) throw notFound('Parking spot');
        if (body.parkingZoneId && body.parkingZoneId !== spot.parkingZoneId && spot.carId) {
          throw conflict('A car is parked in this spot; move the car before moving the spot to another zone');
        }
        return (await parkingSpotsTable.update(trx, teamId, id, body, this.deps.now())) as V1ParkingSpot;
      }),
    );
  }

  async deleteSpot(teamId: string, id: string) {
    const spot = await this.getSpot(teamId, id);
    if (spot.carId) throw conflict('A car is parked in this spot; pick it up or move it first');
    try {
      await parkingSpotsTable.delete(this.deps.db, teamId, id);
    } catch (error) {
      if ((error as { code?: string }).code === FOREIGN_KEY_VIOLATION) {
        throw conflict('The spot has parking history; set isActive to false instead');
      }
      throw error;
    }
    return { id, deleted: true as const };
  }

  listAssignments(
    teamId: string,
    query: EndpointQuery<typeof listParkingAssignments>,
  ): Promise<ListResult<V1ParkingAssignment>> {
    return parkingAssignmentsTable.list(this.deps.db, teamId, query, (q) => {
      if (query.carId) q.where('parking_assignments.car_id', query.carId);
      if (query.parkingSpotId) q.where('parking_assignments.parking_spot_id', query.parkingSpotId);
      if (query.parkingZoneId) q.where('parking_assignments.parking_zone_id', query.parkingZoneId);
      if (query.active === true) q.whereNull('parking_assignments.ended_at');
      if (query.active === false) q.whereNotNull('parking_assignments.ended_at');
    });
  }

  async getAssignment(teamId: string, id: string): Promise<V1ParkingAssignment> {
    const assignment = await parkingAssignmentsTable.findById(this.deps.db, teamId, id);
    if (!assignment) throw notFound('Parking assignment');
    return assignment;
  }

  private async uniqueName<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION)
        throw conflict('The team already has a spot with this name');
      throw error;
    }
  }
}
