import { randomUUID } from 'node:crypto';
import type { createCar, EndpointBody, EndpointQuery, listCars, updateCar, V1Car } from '@vsf/contract';
import { notFound } from '../errors/api-http-error.js';
import { carsTable, customersTable, locationsTable } from '../repositories/tables.js';
import type { ListResult } from '../repositories/team-scoped-table.js';
import { applyPlacement, placementFromCarFields, planPlacement } from './car-placement.js';
import { checkReferences, type Reference } from './check-references.js';
import type { ServiceDeps } from './service-deps.js';

type CarBody = EndpointBody<typeof createCar> | EndpointBody<typeof updateCar>;

export class CarsService {
  constructor(private readonly deps: ServiceDeps) {}

  list(teamId: string, query: EndpointQuery<typeof listCars>): Promise<ListResult<V1Car>> {
    return carsTable.list(this.deps.db, teamId, query, (q) => {
      if (query.customerId) q.where('cars.customer_id', query.customerId);
      if (query.locationId) q.where('cars.location_id', query.locationId);
      if (query.vin) q.where('cars.vin', query.vin);
      if (query.stockNumber) q.where('cars.stock_number', query.stockNumber);
    });
  }

  async get(teamId: string, carId: string): Promise<V1Car> {
    const car = await carsTable.findById(this.deps.db, teamId, carId);
    if (!car) throw notFound('Car');
    return car;
  }

  /** Creates the car and, when it names a spot or zone, parks it there in the same transaction. */
  async create(teamId: string, body: EndpointBody<typeof createCar>): Promise<V1Car> {
    await checkReferences(this.deps.db, teamId, this.references(body));
    const { parkingSpotId, parkingZoneId, ...fields } = body;
    const placement = placementFromCarFields({ parkingSpotId, parkingZoneId });
    const now = this.deps.now();
    return this.deps.db.transaction(async (trx) => {
      const car = await carsTable.insert(trx, teamId, { isForSale: false, ...fields, id: randomUUID() }, now);
      if (!placement) return car;
      const plan = await planPlacement(trx, teamId, car.id, placement, { at: now, atLabel: 'now', sameIsNoop: true });
      await applyPlacement(trx, plan, now);
      return (await carsTable.findById(trx, teamId, car.id)) as V1Car;
    });
  }

  /** Changes the fields sent; a changed spot or zone moves the car as a drop-off would, in one transaction. */
  async update(teamId: string, carId: string, body: EndpointBody<typeof updateCar>): Promise<V1Car> {
    if (!(await carsTable.exists(this.deps.db, teamId, carId))) throw notFound('Car');
    await checkReferences(this.deps.db, teamId, this.references(body));
    const { parkingSpotId, parkingZoneId, ...fields } = body;
    const placement = placementFromCarFields({ parkingSpotId, parkingZoneId });
    const now = this.deps.now();
    return this.deps.db.transaction(async (trx) => {
      const plan =
        placement === undefined
          ? undefined
          : await planPlacement(trx, teamId, carId, placement, { at: now, atLabel: 'now', sameIsNoop: true });
      const car = await carsTable.update(trx, teamId, carId, fields, now);
      if (!car) throw notFound('Car');
      if (!plan || plan.target === undefined) return car;
      await applyPlacement(trx, plan, now);
      return (await carsTable.findById(trx, teamId, carId)) as V1Car;
    });
  }

  private references(body: CarBody): Reference[] {
    return [
      { path: 'customerId', id: body.customerId, table: customersTable, resource: 'Customer' },
      { path: 'locationId', id: body.locationId, table: locationsTable, resource: 'Location' },
    ];
  }
}
