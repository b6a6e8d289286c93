import {
  type EndpointDefinition,
  isStandardOperation,
  type ScopeRequirement,
  type StandardOperation,
  type StandardResource,
  standardResources,
} from '@vsf/contract';
import type { z } from 'zod';

export type { StandardOperation };

/** One resource of the contract as the server reads it (`standardResources`), with what the mock also needs. */
export interface MockResource extends StandardResource {
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
  const resources = new Map<string, MockResource>();
  for (const [namespace, resource] of standardResources()) {
    const read = resource.endpoints.get ?? resource.endpoints.list;
    if (!read) continue;
    resources.set(namespace, { ...resource, fields: Object.keys(recordSchemaOf(read).shape), readScopes: read.scopes });
  }
  return resources;
}

/** Every team resource the contract declares, by SDK namespace. */
export const RESOURCES: ReadonlyMap<string, MockResource> = readResources();

/** The resource an endpoint serves as one of its standard operations, if it is one. */
export function resourceOf(endpoint: EndpointDefinition): MockResource | undefined {
  if (!isStandardOperation(endpoint.sdk.method)) return undefined;
  const resource = RESOURCES.get(endpoint.sdk.namespace.join('.'));
  return resource?.endpoints[endpoint.sdk.method as StandardOperation] === endpoint ? resource : undefined;
}

/** The resource a body field or path parameter names by id (`customerId` → customers). */
export function referencedResource(param: string): MockResource | undefined {
  for (const resource of RESOURCES.values()) if (resource.itemParam === param) return resource;
  return undefined;
}
