import {
  apiEndpoints,
  type EndpointDefinition,
  eventResourceName,
  pathParamNames,
  type ScopeRequirement,
} from '@vsf/contract';
import type { z } from 'zod';

export type StandardOperation = 'list' | 'get' | 'create' | 'update' | 'delete';
const STANDARD = new Set<string>(['list', 'get', 'create', 'update', 'delete']);

/** One resource of the contract, read off its endpoints the way the server reads them (resource-routes.ts). */
export interface MockResource {
  /** SDK namespace, `cars.events`: how the mock, `seed` and the server name a resource. */
  readonly namespace: string;
  readonly endpoints: Partial<Record<StandardOperation, EndpointDefinition>>;
  /** `<label> not found`. */
  readonly label: string;
  /** The item's path parameter, also how bodies name a reference to it (`parkingZoneId`). */
  readonly itemParam: string;
  /** The collection's path parameters: the parents' ids, each also a field of the record. */
  readonly parentParams: readonly string[];
  /** The record's name in events (`car_photo`). */
  readonly eventResource: string;
  /** The record's fields, in the order the API answers them. */
  readonly fields: readonly string[];
  /** What reading a record needs, and so seeing its events. */
  readonly readScopes: ScopeRequirement | undefined;
}

function recordSchemaOf(endpoint: EndpointDefinition): z.ZodObject {
  const shape = (endpoint.response.schema as z.ZodObject).shape as Record<string, z.ZodType>;
  const data = shape.data as z.ZodType;
  // A list answers `data: [record]`, the others `data: record`.
  const element = (data as unknown as { element?: z.ZodObject }).element;
  return (element ?? data) as z.ZodObject;
}

function readResources(): Map<string, MockResource> {
  const byNamespace = new Map<string, Partial<Record<StandardOperation, EndpointDefinition>>>();
  for (const endpoint of Object.values(apiEndpoints) as EndpointDefinition[]) {
    if (endpoint.surface !== 'v1' || !STANDARD.has(endpoint.sdk.method)) continue;
    const namespace = endpoint.sdk.namespace.join('.');
    byNamespace.set(namespace, { ...byNamespace.get(namespace), [endpoint.sdk.method]: endpoint });
  }
  const resources = new Map<string, MockResource>();
  for (const [namespace, endpoints] of byNamespace) {
    const item = endpoints.get ?? endpoints.update ?? endpoints.delete;
    const collection = endpoints.list ?? endpoints.create;
    const read = endpoints.get ?? endpoints.list;
    if (!item?.resourceName || !collection || !read) continue;
    const itemParams = pathParamNames(item.path);
    resources.set(namespace, {
      namespace,
      endpoints,
      label: item.resourceName,
      itemParam: itemParams[itemParams.length - 1] as string,
      parentParams: pathParamNames(collection.path),
      eventResource: eventResourceName((endpoints.get ?? collection).operationId),
      fields: Object.keys(recordSchemaOf(read).shape),
      readScopes: read.scopes,
    });
  }
  return resources;
}

/** Every team resource the contract declares, by SDK namespace. */
export const RESOURCES: ReadonlyMap<string, MockResource> = readResources();

/** The resource an endpoint serves as one of its standard operations, if it is one. */
export function resourceOf(endpoint: EndpointDefinition): MockResource | undefined {
  if (!STANDARD.has(endpoint.sdk.method)) return undefined;
  const resource = RESOURCES.get(endpoint.sdk.namespace.join('.'));
  return resource?.endpoints[endpoint.sdk.method as StandardOperation] === endpoint ? resource : undefined;
}

/** The resource a body field or path parameter names by id (`customerId` → customers). */
export function referencedResource(param: string): MockResource | undefined {
  for (const resource of RESOURCES.values()) if (resource.itemParam === param) return resource;
  return undefined;
}
