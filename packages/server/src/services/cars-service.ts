import { randomUUID } from 'node:crypto';
import type { createCar, EndpointBody, EndpointQuery, listCars, updateCar, V1Car } from '@vsf/contract';
import { notFound } from '../errors/api-http-error.js';
import { carsTable, customersTable, locationsTable } from '../repositories/tables.js';
import type { ListResult } from '../repositories/team-scoped-table.js';
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

  async create(teamId: string, body: EndpointBody<typeof createCar>): Promise<V1Car> {
    await checkReferences(this.deps.db, teamId, this.references(body));
    return carsTable.insert(this.deps.db, teamId, { isForSale: false, ...body, id: randomUUID() }, this.deps.now());
  }

  async update(teamId: string, carId: string, body: EndpointBody<typeof updateCar>): Promise<V1Car> {
    if (!(await carsTable.exists(this.deps.db, teamId, carId))) throw notFound('Car');
    await checkReferences(this.deps.db, teamId, this.references(body));
    const car = await carsTable.update(this.deps.db, teamId, carId, body, this.deps.now());
    if (!car) throw notFound('Car');
    return car;
  }

  private references(body: CarBody): Reference[] {
    return [
      { path: 'customerId', id: body.customerId, table: customersTable, resource: 'Customer' },
      { path: 'locationId', id: body.locationId, table: locationsTable, resource: 'Location' },
    ];
  }
}
