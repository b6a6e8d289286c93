import { type EndpointDefinition, pathParamNames, type StandardOperation } from '@vsf/contract';
import { RESOURCE_TABLES } from '../repositories/resource-tables.js';
import type { AuthContext } from '../services/auth-service.js';
import type { Services } from '../services/index.js';
import { hasHeldFieldScopes, heldFieldScopes } from './field-scopes.js';
import { type Handler, type HandlerContext, listBody } from './handler.js';

const STANDARD = new Set(['list', 'get', 'create', 'update', 'delete']);

/** The endpoints of `Es` that are a resource's standard operation (by their SDK method's name). */
export type StandardKeys<Es extends Record<string, EndpointDefinition>> = {
  [K in keyof Es]: Es[K] extends { readonly sdk: { readonly method: StandardOperation } } ? K : never;
}[keyof Es];
/** What `standardHandlers` derives: a handler for each standard operation (binding checks its resource). */
export type StandardHandlers<Es extends Record<string, EndpointDefinition>> = {
  [K in StandardKeys<Es>]: Handler<Es[K]>;
};

type ServiceMethod = (...args: unknown[]) => Promise<unknown>;

/**
 * Where a standard endpoint's work is done: the method of the same name (`list`, `get`…) on the team
 * resource of its SDK namespace (services/resources.ts).
 */
export function standardMethod(
  endpoint: EndpointDefinition,
): { service: (services: Services) => object | undefined; method: string } | undefined {
  const namespace = endpoint.sdk.namespace.join('.');
  const operation = endpoint.sdk.method;
  if (endpoint.surface !== 'v1' || !STANDARD.has(operation) || !(namespace in RESOURCE_TABLES)) return undefined;
  return {
    service: (services) => (services.resources as Record<string, object | undefined>)[namespace],
    method: operation,
  };
}

/** Standard create handlers, and whether their resource's create touches only the database before its first query. */
const creates = new WeakMap<Handler<EndpointDefinition>, (services: Services) => boolean>();

/**
 * Whether an idempotent request to `handler` may claim its key with the handler's first query
 * (idempotent-execution.ts): only a standard create whose resource says its create does nothing outside
 * the database before that query. A hand-written handler is claimed first, as is any other.
 */
export function claimsWithFirstWrite(handler: Handler<EndpointDefinition>, services: Services): boolean {
  return creates.get(handler)?.(services) ?? false;
}

/**
 * The handlers of every standard endpoint of `endpoints`: each calls its service method with the team,
 * the path ids in the path's order, then the query (list) or the body (create, update), and wraps the
 * result as the contract says (`{data}`, or a page); a create or update whose field scopes may wait for the
 * record gets a last argument, the check of those (`HeldFieldScopes`). Endpoints whose behaviour differs (a soft delete, a
 * create that needs the caller's scopes) are written by hand and override these.
 */
export function standardHandlers<const Es extends Record<string, EndpointDefinition>>(
  endpoints: Es,
): StandardHandlers<Es> {
  const handlers: Record<string, Handler<EndpointDefinition>> = {};
  for (const endpoint of Object.values(endpoints)) {
    const target = standardMethod(endpoint);
    if (!target) continue;
    const ids = pathParamNames(endpoint.path);
    const operation = endpoint.sdk.method;
    const waits = hasHeldFieldScopes(endpoint);
    const handler = async ({ auth, params, query, body, services }: HandlerContext<EndpointDefinition>) => {
      const service = target.service(services) as Record<string, ServiceMethod>;
      const pathIds = ids.map((name) => (params as Record<string, string>)[name]);
      const writes = operation === 'create' || operation === 'update';
      const last = operation === 'list' ? [query] : writes ? [body] : [];
      // Scopes that wait for the record (a pick-up frees a spot only if the car holds one): the service runs them.
      if (writes && waits) last.push(heldFieldScopes(auth as unknown as AuthContext, endpoint, body));
      const result = await service[target.method]!.call(
        service,
        (auth as unknown as AuthContext).teamId,
        ...pathIds,
        ...last,
      );
      return operation === 'list'
        ? listBody(query as { page: number; limit: number }, result as { records: unknown[]; total: number })
        : { data: result };
    };
    handlers[endpoint.operationId] = handler as Handler<EndpointDefinition>;
    if (operation === 'create') {
      creates.set(
        handler as Handler<EndpointDefinition>,
        (services) =>
          (target.service(services) as { createTouchesOnlyTheDatabase?: boolean } | undefined)
            ?.createTouchesOnlyTheDatabase === true,
      );
    }
  }
  return handlers as StandardHandlers<Es>;
}
