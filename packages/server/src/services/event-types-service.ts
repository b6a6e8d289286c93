import type { EndpointQuery, listEventTypes, V1EventType } from '@vsf/contract';
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
}
