import { randomUUID } from 'node:crypto';
import type {
  createEventType,
  EndpointBody,
  EndpointQuery,
  listEventTypes,
  updateEventType,
  V1EventType,
} from '@vsf/contract';
import { conflict, notFound } from '../errors/api-http-error.js';
import { eventTypesTable, toEventType } from '../repositories/tables.js';
import type { ListResult } from '../repositories/team-scoped-table.js';
import type { ServiceDeps } from './service-deps.js';

export class EventTypesService {
  constructor(private readonly deps: ServiceDeps) {}

  async list(teamId: string, query: EndpointQuery<typeof listEventTypes>): Promise<ListResult<V1EventType>> {
    const result = await eventTypesTable.list(this.deps.db, teamId, query, (q) => {
      if (query.scope) q.where('event_types.scope', query.scope);
    });
    return { records: result.records.map(toEventType), total: result.total };
  }

  async get(teamId: string, id: string): Promise<V1EventType> {
    const row = await eventTypesTable.findById(this.deps.db, teamId, id);
    if (!row) throw notFound('Event type');
    return toEventType(row);
  }

  async create(teamId: string, body: EndpointBody<typeof createEventType>): Promise<V1EventType> {
    try {
      const row = await eventTypesTable.insert(
        this.deps.db,
        teamId,
        {
          id: randomUUID(),
          value: body.value,
          name: body.name,
          scope: body.scope,
          requiresParkingSpot: body.config?.requiresParkingSpot ?? false,
          isDefault: false,
        },
        this.deps.now(),
      );
      return toEventType(row);
    } catch (error) {
      if ((error as { code?: string }).code === '23505')
        throw conflict(`The team already has an event type "${body.value}"`);
      throw error;
    }
  }

  async update(teamId: string, id: string, body: EndpointBody<typeof updateEventType>): Promise<V1EventType> {
    const row = await eventTypesTable.update(
      this.deps.db,
      teamId,
      id,
      { name: body.name, scope: body.scope, requiresParkingSpot: body.config?.requiresParkingSpot },
      this.deps.now(),
    );
    if (!row) throw notFound('Event type');
    return toEventType(row);
  }
}
