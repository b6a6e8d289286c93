import type { IncomingMessage } from 'node:http';
import type { AuthContext } from '../services/auth-service.js';

/**
 * Requests the assistant connector runs through the API on a tool call's behalf, with the credential its
 * own request verified a moment before. Membership is by object identity, which nothing sent over the
 * network can forge: only these may present an OAuth access token.
 */
const connectorRequests = new WeakMap<object, AuthContext>();

export function markConnectorRequest(req: IncomingMessage, verified: AuthContext): void {
  connectorRequests.set(req, verified);
}

export function isConnectorRequest(req: IncomingMessage): boolean {
  return connectorRequests.has(req);
}

/**
 * The grant the connector's request verified (every check of the spec's order, read from the database)
 * for the tool call it is running now: the call does not read it a second time. The next request to
 * `/mcp` verifies it again, so revocation still acts on the next request; a long poll rechecks it.
 */
export function verifiedByConnector(req: IncomingMessage): AuthContext | undefined {
  return connectorRequests.get(req);
}
