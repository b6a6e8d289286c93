import { randomUUID } from 'node:crypto';
import type { createCar, EndpointBody, updateCar, V1Car } from '@vsf/contract';
import { carsTable, customersTable, locationsTable } from '../../repositories/tables.js';
import { applyPlacement, heldFieldScopesOr403, placementFromCarFields, planPlacement } from '../car-placement.js';
import { checkReferences, type Reference } from '../check-references.js';
import type { ServiceDeps } from '../service-deps.js';
import { TeamResource } from '../standard/team-resource.js';

type CarBody = EndpointBody<typeof createCar> | EndpointBody<typeof updateCar>;

/** Cars: a car's spot or zone fields park it, through the same placement as a drop-off. */
export class Cars extends TeamResource<V1Car> {
  constructor(deps: ServiceDeps) {
    super(deps, 'cars', { defaults: { isForSale: false } });
  }

  /** Its checks and writes are all queries of this database. */
  override get createTouchesOnlyTheDatabase(): boolean {
    return true;
  }

  /**
   * Creates the car and, when it names a spot or zone, parks it there in the same transaction. A new car
   * holds no place, so `null` ones need no parking scope (`freesHeldPlace` is then never called).
   */
  override async create(teamId: string, payload: unknown, freesHeldPlace?: unknown): Promise<V1Car> {
    const body = payload as EndpointBody<typeof createCar>;
    await checkReferences(this.deps.db, teamId, this.references(body));
    const { parkingSpotId, parkingZoneId, ...fields } = body;
    const placement = placementFromCarFields({ parkingSpotId, parkingZoneId });
    const now = this.deps.now();
    const values = { isForSale: false, ...fields, id: randomUUID() };
    // One statement needs no transaction of its own (inside an idempotent request it would be a savepoint):
    // two round trips fewer for the usual create.
    if (!placement) return carsTable.insert(this.deps.db, teamId, values, now);
    return this.deps.db.transaction(async (trx) => {
      const car = await carsTable.insert(trx, teamId, values, now);
      const plan = await planPlacement(trx, teamId, car.id, placement, {
        at: now,
        atLabel: 'now',
        sameIsNoop: true,
        freesHeldPlace: heldFieldScopesOr403(freesHeldPlace),
      });
      await applyPlacement(trx, plan, now);
      return (await carsTable.findById(trx, teamId, car.id)) as V1Car;
    });
  }

  /**
   * Changes the fields sent; a changed spot or zone moves the car as a drop-off would, in one transaction.
   * `freesHeldPlace` requires the parking scope of a `null` place once the car turns out to hold one.
   */
  override async update(teamId: string, carId: unknown, payload: unknown, freesHeldPlace?: unknown): Promise<V1Car> {
    const body = payload as EndpointBody<typeof updateCar>;
    await this.get(teamId, carId as string);
    await checkReferences(this.deps.db, teamId, this.references(body));
    const { parkingSpotId, parkingZoneId, ...fields } = body;
    const placement = placementFromCarFields({ parkingSpotId, parkingZoneId });
    const now = this.deps.now();
    if (placement === undefined) {
      const car = await carsTable.update(this.deps.db, teamId, carId as string, fields, now);
      if (!car) throw this.missing();
      return car;
    }
    return this.deps.db.transaction(async (trx) => {
      const plan = await planPlacement(trx, teamId, carId as string, placement, {
        at: now,
        atLabel: 'now',
        sameIsNoop: true,
        freesHeldPlace: heldFieldScopesOr403(freesHeldPlace),
      });
      const car = await carsTable.update(trx, teamId, carId as string, fields, now);
      if (!car) throw this.missing();
      if (plan.target === undefined) return car;
      await applyPlacement(trx, plan, now);
      return (await carsTable.findById(trx, teamId, car.id)) as V1Car;
    });
  }

  /** Spot and zone are checked by the placement, which says why a spot cannot take the car. */
  private references(body: CarBody): Reference[] {
    return [
      { path: 'customerId', id: body.customerId, table: customersTable, resource: 'Customer' },
      { path: 'locationId', id: body.locationId, table: locationsTable, resource: 'Location' },
    ];
  }
}
