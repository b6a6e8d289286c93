import { type EndpointDefinition, pathParamNames } from './endpoint.js';
import { apiEndpoints } from './endpoints/index.js';
import { eventResourceName, resourceTableName } from './event-resource.js';

export type StandardOperation = 'list' | 'get' | 'create' | 'update' | 'delete';

const STANDARD = new Set<string>(['list', 'get', 'create', 'update', 'delete']);

/**
 * One resource as its standard operations declare it, read off the contract's endpoints by SDK namespace:
 * what the reference server serves generically and the mock (`@vsf/testing`) imitates, read the same way.
 */
export interface StandardResource {
  /** SDK namespace, `cars.events`. */
  readonly namespace: string;
  readonly endpoints: Partial<Record<StandardOperation, EndpointDefinition>>;
  /** The record in `<label> not found` (`Parking zone`). */
  readonly label: string;
  /** The item's path parameter, which is also how bodies name a reference to it (`parkingZoneId`). */
  readonly itemParam: string;
  /** The path parameters of the collection: the parents' ids, each also a field of the record (`formId`). */
  readonly parentParams: readonly string[];
  /** The record's name in the contract, snake_case (`getCarPhoto` → `car_photo`): its events' `resource`. */
  readonly eventResource: string;
  /** Where its records are stored: `key_boxes` (`resourceTableName`). */
  readonly tableName: string;
}

function readResources(): Map<string, StandardResource> {
  const byNamespace = new Map<string, Partial<Record<StandardOperation, EndpointDefinition>>>();
  for (const endpoint of Object.values(apiEndpoints) as EndpointDefinition[]) {
    if (endpoint.surface !== 'v1' || !STANDARD.has(endpoint.sdk.method)) continue;
    const namespace = endpoint.sdk.namespace.join('.');
    byNamespace.set(namespace, { ...byNamespace.get(namespace), [endpoint.sdk.method]: endpoint });
  }
  const resources = new Map<string, StandardResource>();
  for (const [namespace, endpoints] of byNamespace) {
    const item = endpoints.get ?? endpoints.update ?? endpoints.delete;
    const collection = endpoints.list ?? endpoints.create;
    if (!item?.resourceName || !collection) continue;
    const itemParams = pathParamNames(item.path);
    resources.set(namespace, {
      namespace,
      endpoints,
      label: item.resourceName,
      itemParam: itemParams[itemParams.length - 1] as string,
      parentParams: pathParamNames(collection.path),
      eventResource: eventResourceName((endpoints.get ?? collection).operationId),
      tableName: resourceTableName(endpoints),
    });
  }
  return resources;
}

let resources: Map<string, StandardResource> | undefined;

/** Every standard resource of the team API, by SDK namespace (read on first use). */
export function standardResources(): ReadonlyMap<string, StandardResource> {
  resources ??= readResources();
  return resources;
}

/** Whether an endpoint is one of a resource's standard operations (by its SDK method's name). */
export function isStandardOperation(method: string): method is StandardOperation {
  return STANDARD.has(method);
}
