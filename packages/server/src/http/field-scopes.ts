import { type EndpointDefinition, triggeredFieldScopes } from '@vsf/contract';
import { type AuthContext, requireScopes } from '../services/auth-service.js';

/**
 * The extra scopes of the body fields the endpoint declares as changing other resources (a car's
 * `parkingSpotId` takes a spot): checked after validation and before the handler reads or stores anything.
 */
export function requireFieldScopes(auth: AuthContext, endpoint: EndpointDefinition, body: unknown): void {
  for (const rule of triggeredFieldScopes(endpoint, body)) requireScopes(auth, rule.scopes);
}
