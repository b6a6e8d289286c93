import { type EndpointDefinition, triggeredFieldScopes, waitsForRecord } from '@vsf/contract';
import { type AuthContext, requireScopes } from '../services/auth-service.js';
import type { HeldFieldScopes } from '../services/car-placement.js';

/**
 * The extra scopes of the body fields the endpoint declares as changing other resources (a car's
 * `parkingSpotId` takes a spot): checked after validation and before the handler reads or stores anything.
 * A value that only frees what the record holds (a `pick_up`) waits for the record: see {@link heldFieldScopes}.
 */
export function requireFieldScopes(auth: AuthContext, endpoint: EndpointDefinition, body: unknown): void {
  for (const rule of triggeredFieldScopes(endpoint, body)) {
    if (!waitsForRecord(rule, body)) requireScopes(auth, rule.scopes);
  }
}

/** The check a service runs when the record turns out to hold what the body frees (a no-op when nothing waits). */
export function heldFieldScopes(auth: AuthContext, endpoint: EndpointDefinition, body: unknown): HeldFieldScopes {
  const waiting = triggeredFieldScopes(endpoint, body).filter((rule) => waitsForRecord(rule, body));
  return () => {
    for (const rule of waiting) requireScopes(auth, rule.scopes);
  };
}

/** Whether the endpoint has field scopes that may wait for the record, so its service takes a {@link HeldFieldScopes}. */
export function hasHeldFieldScopes(endpoint: EndpointDefinition): boolean {
  return endpoint.fieldScopes?.some((rule) => rule.whenHeld) ?? false;
}
