import type { IncomingMessage } from 'node:http';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';

/** A `tools/call` request, as the connector answers it without the MCP SDK's server (mcp-endpoint.ts). */
export interface PlainToolCall {
  id: string | number;
  name: string;
  args: Record<string, unknown>;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The checks the SDK's Streamable HTTP transport makes of a POST, all passed (else the SDK answers). */
function transportWouldAccept(req: IncomingMessage): boolean {
  const accept = req.headers.accept ?? '';
  const mediaType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  const version = req.headers['mcp-protocol-version'];
  return (
    accept.includes('application/json') &&
    accept.includes('text/event-stream') &&
    mediaType === 'application/json' &&
    (version === undefined || (typeof version === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(version)))
  );
}

/**
 * The one message worth answering directly: a single, well-formed `tools/call` whose request the SDK's
 * transport would accept. Building the SDK's server and transport for it (and converting the Node
 * request to a Web request and back) cost more than the API request the call runs; for such a message
 * they do nothing but hand the name and arguments to our handler and its result back as JSON. Anything
 * else (initialize, lists, notifications, a batch, a malformed message, an unsupported protocol version)
 * still goes through the SDK, which owns the protocol's errors.
 */
export function plainToolCall(req: IncomingMessage, body: unknown): PlainToolCall | undefined {
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || body.method !== 'tools/call') return undefined;
  const { id, params } = body;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)))) return undefined;
  if (!isPlainObject(params) || typeof params.name !== 'string') return undefined;
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return undefined;
  if (!transportWouldAccept(req)) return undefined;
  return { id, name: params.name, args: params.arguments ?? {} };
}
