import type { V1ParkingSpot } from '@vsf/contract';
import { conflict } from '../../errors/api-http-error.js';
import { parkingSpotsTable } from '../../repositories/facility-tables.js';
import type { Changes } from '../../repositories/team-scoped-table.js';
import type { ServiceDeps } from '../service-deps.js';
import { mapConflicts } from '../standard/constraint-conflicts.js';
import { checkBodyReferences } from '../standard/resource-routes.js';
import { TeamResource } from '../standard/team-resource.js';

/** Spots: a spot holding a car can neither move to another zone nor be deleted. */
export class ParkingSpots extends TeamResource<V1ParkingSpot> {
  constructor(deps: ServiceDeps) {
    super(deps, 'parking.spots', {
      defaults: { isActive: true },
      filters: {
        occupied: (q, value, column) => {
          if (value === true) q.whereNotNull(column('carId'));
          if (value === false) q.whereNull(column('carId'));
        },
      },
      conflicts: {
        duplicate: 'The team already has a spot with this name',
      },
    });
  }

  override async update(teamId: string, id: unknown, body: unknown): Promise<V1ParkingSpot> {
    const changes = body as Changes<V1ParkingSpot>;
    await this.get(teamId, id as string);
    await checkBodyReferences(this.deps.db, teamId, this.routes.endpoints.update, changes);
    return mapConflicts(this.writeConflicts(changes), () =>
      this.deps.db.transaction(async (trx) => {
        // Locked as a placement locks it: a car cannot arrive between the check and the move.
        const spot = await parkingSpotsTable.findById(trx, teamId, id as string, { forUpdate: true });
        if (!spot) throw this.missing();
        if (changes.parkingZoneId && changes.parkingZoneId !== spot.parkingZoneId && spot.carId) {
          throw conflict('A car is parked in this spot; move the car before moving the spot to another zone');
        }
        return (await parkingSpotsTable.update(trx, teamId, spot.id, changes, this.deps.now())) as V1ParkingSpot;
      }),
    );
  }

  override async delete(teamId: string, id: string) {
    const spot = await this.get(teamId, id);
    if (spot.carId) throw conflict('A car is parked in this spot; pick it up or move it first');
    return super.delete(teamId, id);
  }
}
