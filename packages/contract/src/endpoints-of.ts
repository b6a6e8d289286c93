import type { EndpointDefinition } from './endpoint.js';

type Contributions<M> = {
  [K in keyof M]: M[K] extends { readonly endpoints: infer E }
    ? E
    : M[K] extends EndpointDefinition
      ? { readonly [P in K]: M[K] }
      : never;
}[keyof M];
type Merged<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The endpoints modules of `endpoints/` declare, by operation id: their resources' and their own. */
export type EndpointsOf<Ms extends readonly object[]> = Merged<{ [I in keyof Ms]: Contributions<Ms[I]> }[number]>;

/** A `defineResource` result, as an endpoint module exports it. */
export const isResource = (value: unknown): value is { endpoints: Record<string, EndpointDefinition> } =>
  typeof value === 'object' && value !== null && 'endpoints' in value && 'label' in value;
/** An endpoint written by hand (`defineEndpoint`), as an endpoint module exports it. */
export const isEndpoint = (value: unknown): value is EndpointDefinition =>
  typeof value === 'object' && value !== null && 'operationId' in value && 'method' in value;

/**
 * Every endpoint the modules of `endpoints/` export: each exported resource's derived endpoints and each
 * endpoint written by hand (exported under its operation id), module by module in operation-id order. A
 * resource is declared once and exported; its endpoints are not listed again (src/generated/endpoints.ts
 * gives each its name).
 */
export function endpointsOf<const Ms extends readonly object[]>(...modules: Ms): EndpointsOf<Ms> {
  const endpoints: Record<string, EndpointDefinition> = {};
  for (const module of modules) {
    const entries: [string, EndpointDefinition][] = [];
    for (const [name, value] of Object.entries(module)) {
      if (isResource(value)) entries.push(...Object.entries(value.endpoints));
      else if (isEndpoint(value)) {
        if (value.operationId !== name) throw new Error(`${name}: exported under another name than its operation id`);
        entries.push([name, value]);
      }
    }
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [id, endpoint] of entries) {
      if (id in endpoints) throw new Error(`${id}: declared twice`);
      endpoints[id] = endpoint;
    }
  }
  return endpoints as EndpointsOf<Ms>;
}
