import { type EndpointDefinition, pathParamNames } from '@vsf/contract';
import type { AuthContext } from '../services/auth-service.js';
import type { Services } from '../services/index.js';
import { type Handler, type HandlerContext, listBody } from './handler.js';
import { SERVED_BY } from './served-by.js';

const STANDARD = new Set(['list', 'get', 'create', 'update', 'delete']);

type ServiceMethod = (...args: unknown[]) => Promise<unknown>;

/** Where a standard endpoint's work is done: the service and its method, by the naming rule of SERVED_BY. */
export function standardMethod(endpoint: EndpointDefinition): { service: keyof Services; method: string } | undefined {
  const served = SERVED_BY[endpoint.sdk.namespace.join('.')];
  if (endpoint.surface !== 'v1' || !served || !STANDARD.has(endpoint.sdk.method)) return undefined;
  const [service, noun] = served;
  const operation = endpoint.sdk.method;
  return { service, method: noun ? `${operation}${noun}${operation === 'list' ? 's' : ''}` : operation };
}

/**
 * The handlers of every standard endpoint of `endpoints`: each calls its service method with the team,
 * the path ids in the path's order, then the query (list) or the body (create, update), and wraps the
 * result as the contract says (`{data}`, or a page). Endpoints whose behaviour differs (a soft delete, a
 * create that needs the caller's scopes) are written by hand and override these.
 */
export function standardHandlers(
  endpoints: Record<string, EndpointDefinition>,
): Record<string, Handler<EndpointDefinition>> {
  const handlers: Record<string, Handler<EndpointDefinition>> = {};
  for (const endpoint of Object.values(endpoints)) {
    const target = standardMethod(endpoint);
    if (!target) continue;
    const ids = pathParamNames(endpoint.path);
    const operation = endpoint.sdk.method;
    const handler = async ({ auth, params, query, body, services }: HandlerContext<EndpointDefinition>) => {
      const service = services[target.service] as unknown as Record<string, ServiceMethod>;
      const pathIds = ids.map((name) => (params as Record<string, string>)[name]);
      const last = operation === 'list' ? [query] : operation === 'create' || operation === 'update' ? [body] : [];
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
  }
  return handlers;
}
