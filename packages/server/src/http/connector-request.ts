import type { IncomingMessage } from 'node:http';

/**
 * Requests the assistant connector runs through the API on a tool call's behalf. Membership is by object
 * identity, which nothing sent over the network can forge: only these may present an OAuth access token.
 */
const connectorRequests = new WeakSet<object>();

export function markConnectorRequest(req: IncomingMessage): void {
  connectorRequests.add(req);
}

export function isConnectorRequest(req: IncomingMessage): boolean {
  return connectorRequests.has(req);
}
