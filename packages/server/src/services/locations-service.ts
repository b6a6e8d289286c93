import { randomUUID } from 'node:crypto';
import type {
  createLocation,
  EndpointBody,
  EndpointQuery,
  listLocations,
  updateLocation,
  V1Location,
} from '@vsf/contract';
import { conflict, notFound } from '../errors/api-http-error.js';
import { locationsTable } from '../repositories/tables.js';
import type { ListResult } from '../repositories/team-scoped-table.js';
import type { ServiceDeps } from './service-deps.js';

const FOREIGN_KEY_VIOLATION = '23503';

export class LocationsService {
  constructor(private readonly deps: ServiceDeps) {}

  list(teamId: string, query: EndpointQuery<typeof listLocations>): Promise<ListResult<V1Location>> {
    return locationsTable.list(this.deps.db, teamId, query, (q) => {
      if (query.isActive !== undefined) q.where('locations.is_active', query.isActive);
    });
  }

  async get(teamId: string, locationId: string): Promise<V1Location> {
    const location = await locationsTable.findById(this.deps.db, teamId, locationId);
    if (!location) throw notFound('Location');
    return location;
  }

  create(teamId: string, body: EndpointBody<typeof createLocation>): Promise<V1Location> {
    return locationsTable.insert(this.deps.db, teamId, { isActive: true, ...body, id: randomUUID() }, this.deps.now());
  }

  async update(teamId: string, locationId: string, body: EndpointBody<typeof updateLocation>): Promise<V1Location> {
    const location = await locationsTable.update(this.deps.db, teamId, locationId, body, this.deps.now());
    if (!location) throw notFound('Location');
    return location;
  }

  async delete(teamId: string, locationId: string): Promise<{ id: string; deleted: true }> {
    try {
      if (!(await locationsTable.delete(this.deps.db, teamId, locationId))) throw notFound('Location');
    } catch (error) {
      if ((error as { code?: string }).code === FOREIGN_KEY_VIOLATION) {
        throw conflict('Location is still in use by cars, customers or parking zones; set isActive to false instead');
      }
      throw error;
    }
    return { id: locationId, deleted: true };
  }
}
