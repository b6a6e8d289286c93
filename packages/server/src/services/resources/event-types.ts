import type { EndpointBody, updateEventType, V1EventType } from '@vsf/contract';
import { type EventTypeRow, toEventType } from '../../repositories/tables.js';
import type { ServiceDeps } from '../service-deps.js';
import { TeamResource } from '../standard/team-resource.js';

/** Event types keep `config.requiresParkingSpot` as a column; a team's values are unique. */
export class EventTypes extends TeamResource<V1EventType, EventTypeRow> {
  constructor(deps: ServiceDeps) {
    super(deps, 'eventTypes', {
      defaults: { requiresParkingSpot: false, isDefault: false },
      present: toEventType,
      conflicts: { duplicate: (body) => `The team already has an event type "${body.value}"` },
      write: (body) => {
        const { config, ...fields } = body as EndpointBody<typeof updateEventType> & { value?: string };
        return { ...fields, requiresParkingSpot: config?.requiresParkingSpot };
      },
    });
  }
}
