import type { IncomingMessage } from 'node:http';
import { type AssistantTool, callIdempotencyKey, toolHttpRequest } from '@vsf/contract';
import type { RequestListener } from '../http/api-only-app.js';
import { markConnectorRequest } from '../http/connector-request.js';
import type { AuthContext } from '../services/auth-service.js';
import { exchange } from './in-process-exchange.js';

/** What a tool call got back from the API: the status, and the JSON as the API wrote it or the bytes with their type. */
export interface ApiAnswer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** A JSON response's text, unparsed: a record's result is written around it (tool-results.ts). */
  json?: string;
  bytes?: Buffer;
}

export interface CallContext {
  /** The assistant's access token: the API's request carries it, as any request carries its credential. */
  token: string;
  /** What `/mcp` verified the token as, moments before: the call runs with it (connector-request.ts). */
  auth: AuthContext;
  /** The client's address and `Host`, so failed-auth counting and host checks see the real client. */
  remoteAddress: string;
  host: string;
  requestId?: string | undefined;
  /** The `/mcp` request: a failure inside the call is logged under its line. */
  outer: IncomingMessage;
}

/**
 * Runs a tool call as the HTTP request it stands for, through the API's routers in this process (api-only-app.ts):
 * the same authentication, scopes, tenant, validation, rate limit and idempotency as any request. The
 * request is marked as the connector's (by object identity), which is what lets it present an OAuth token.
 */
export async function callApi(
  app: RequestListener,
  tool: AssistantTool,
  args: Record<string, unknown>,
  context: CallContext,
): Promise<ApiAnswer> {
  const request = toolHttpRequest(tool, args);
  const headers: Record<string, string> = {
    authorization: `Bearer ${context.token}`,
    host: context.host,
    'user-agent': 'vsf-assistant-connector',
    accept: tool.binaryResponse ? 'image/*' : 'application/json',
  };
  if (context.requestId) headers['x-request-id'] = context.requestId;
  if (request.method === 'POST') headers['idempotency-key'] = callIdempotencyKey(tool, args);
  if (request.body) headers['content-type'] = 'application/json';
  const response = await exchange(
    app,
    {
      method: request.method,
      url: request.url,
      headers,
      remoteAddress: context.remoteAddress,
      body: request.body ? JSON.stringify(request.body) : undefined,
      logUnder: context.outer,
    },
    (req) => markConnectorRequest(req, context.auth),
  );
  const type = String(response.headers['content-type'] ?? '');
  const { status, headers: answered, body } = response;
  if (!type.includes('json'))
    return { status, headers: answered, bytes: typeof body === 'string' ? Buffer.from(body) : body };
  return { status, headers: answered, json: typeof body === 'string' ? body : body.toString('utf8') };
}
