import type { EndpointDefinition } from './endpoint.js';
import { snakeCase } from './record-columns.js';

/**
 * The `resource` an event names (`car`, `parking_zone`, `rsvp_option`): the record's noun as its `get`
 * operation spells it, in snake_case. The server names its events and a mirror finds its table by it.
 */
export function eventResourceName(getOperationId: string): string {
  return snakeCase(getOperationId.replace(/^(get|list)/, '')).replace(/^_/, '');
}

/** The `get` of the records a collection path lists (`/cars` → `GET /cars/{carId}`), if there is one. */
export function itemEndpointOf(
  collectionPath: string,
  endpoints: Record<string, EndpointDefinition>,
): EndpointDefinition | undefined {
  return Object.values(endpoints).find(
    (e) => e.method === 'get' && new RegExp(`^${collectionPath}/\\{\\w+\\}$`).test(e.path) && !e.response.contentType,
  );
}
