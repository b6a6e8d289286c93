import { firstMissingScope, type ScopeRequirement } from '@vsf/contract';
import { RECORDED_NAMESPACES } from '../repositories/resource-tables.js';
import { resourceRoutes } from '../services/standard/resource-routes.js';

/** The scopes reading an event's resource needs (`customer` → `read:customers`), by the event's `resource`. */
const EVENT_READ_SCOPES: ReadonlyMap<string, ScopeRequirement | undefined> = new Map(
  RECORDED_NAMESPACES.map((namespace) => {
    const routes = resourceRoutes(namespace);
    return [routes.eventResource, (routes.endpoints.get ?? routes.endpoints.list)?.scopes] as const;
  }),
);

/** Every event `resource` there is (`car`, `parking_zone`). */
export const EVENT_RESOURCES: ReadonlySet<string> = new Set(EVENT_READ_SCOPES.keys());

/** The scope a key with `scopes` lacks to read events of this type (`customer.created`); undefined if none. */
export function missingScopeForEvent(eventType: string, scopes: ReadonlySet<string>): string | undefined {
  const required = EVENT_READ_SCOPES.get(eventType.split('.')[0] as string);
  // An event of no known resource is read by no one.
  if (!required) return eventType;
  return firstMissingScope(scopes, required);
}

/** The event types (`customer.created`, …) of every resource a key with `scopes` can read. */
export function readableEventTypes(scopes: ReadonlySet<string>): string[] {
  return [...EVENT_RESOURCES]
    .filter((resource) => missingScopeForEvent(`${resource}.created`, scopes) === undefined)
    .flatMap((resource) => ['created', 'updated', 'deleted'].map((action) => `${resource}.${action}`));
}

/**
 * The scopes an endpoint reads with now: those remembered when it was set up, less any its key has lost since
 * (`keyScopes` null: no key to follow, an endpoint from before keys were remembered or made by a grant).
 */
export function effectiveReadScopes(readScopes: readonly string[], keyScopes: readonly string[] | null): Set<string> {
  if (keyScopes === null) return new Set(readScopes);
  const held = new Set(keyScopes);
  return new Set(readScopes.filter((scope) => held.has(scope)));
}
