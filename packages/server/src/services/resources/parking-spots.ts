import type { V1ParkingSpot } from '@vsf/contract';
import { conflict } from '../../errors/api-http-error.js';
import { carsTable, parkingSpotsTable } from '../../repositories/tables.js';
import type { Changes, Executor } from '../../repositories/team-scoped-table.js';
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

  /**
   * Changes the spot; a new name is also the `parkingSpot` label of the car in it, written (with the car's
   * `updatedAt`, so `updatedAfter` syncs see it) in the same transaction.
   */
  override async update(teamId: string, id: unknown, body: unknown): Promise<V1ParkingSpot> {
    const changes = body as Changes<V1ParkingSpot>;
    await this.get(teamId, id as string);
    await checkBodyReferences(this.deps.db, teamId, this.routes.endpoints.update, changes);
    return mapConflicts(this.writeConflicts(changes), () =>
      this.deps.db.transaction(async (trx) => {
        // A placement locks its car before the spot: the car parked here is locked first too, so a rename
        // and a pick-up of that car wait for each other instead of deadlocking.
        if (changes.name !== undefined) await lockCarsIn(trx, teamId, id as string);
        // Locked as a placement locks it: a car cannot arrive between the check and the move.
        const spot = await parkingSpotsTable.findById(trx, teamId, id as string, { forUpdate: true });
        if (!spot) throw this.missing();
        if (changes.parkingZoneId && changes.parkingZoneId !== spot.parkingZoneId && spot.carId) {
          throw conflict('A car is parked in this spot; move the car before moving the spot to another zone');
        }
        const now = this.deps.now();
        const updated = (await parkingSpotsTable.update(trx, teamId, spot.id, changes, now)) as V1ParkingSpot;
        if (updated.name !== spot.name) await relabelCarsIn(trx, teamId, spot.id, updated.name, now);
        return updated;
      }),
    );
  }

  override async delete(teamId: string, id: string) {
    const spot = await this.get(teamId, id);
    if (spot.carId) throw conflict('A car is parked in this spot; pick it up or move it first');
    return super.delete(teamId, id);
  }
}

async function lockCarsIn(trx: Executor, teamId: string, spotId: string): Promise<void> {
  await carsTable.scoped(trx, teamId).where(carsTable.column('parkingSpotId'), spotId).forUpdate().select('cars.id');
}

/** The cars' copy of the spot's name follows it, and their `updatedAt` says they changed. */
async function relabelCarsIn(trx: Executor, teamId: string, spotId: string, name: string, now: Date): Promise<void> {
  await carsTable
    .scoped(trx, teamId)
    .where(carsTable.column('parkingSpotId'), spotId)
    .update({ ...carsTable.toRow({ parkingSpot: name }), updated_at: now });
}
