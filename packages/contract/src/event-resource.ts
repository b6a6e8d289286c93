import type { EndpointDefinition } from './endpoint.js';
import { pluralOf } from './plural.js';
import { snakeCase } from './record-columns.js';

/**
 * The `resource` an event names (`car`, `parking_zone`, `rsvp_option`): the record's noun as its `get`
 * operation spells it, in snake_case. The server names its events and a mirror finds its table by it.
 */
export function eventResourceName(getOperationId: string): string {
  return snakeCase(getOperationId.replace(/^(get|list)/, '')).replace(/^_/, '');
}

/**
 * The table of a resource's records (the server's, and the sync's mirror of a new list): the plural its
 * list is named with, snake_case (`listKeyBoxes` → `key_boxes`), else the plural rule's of its `get`.
 */
export function resourceTableName(endpoints: { list?: { operationId: string }; get?: { operationId: string } }) {
  const plural = endpoints.list
    ? endpoints.list.operationId.replace(/^list/, '')
    : pluralOf((endpoints.get?.operationId ?? '').replace(/^get/, ''));
  return snakeCase(plural).replace(/^_/, '');
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
