import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { type AssistantTool, deriveAssistantTools, toolAllowed, toolListEntry } from '@vsf/contract';
import { type Request, type Response, Router } from 'express';
import { ApiHttpError, apiErrorBody } from '../errors/api-http-error.js';
import type { RequestListener } from '../http/api-only-app.js';
import type { BodyTimeouts } from '../http/body-timeouts.js';
import { readJsonBody } from '../http/read-json-body.js';
import { bearerToken } from '../http/request-credentials.js';
import { clientAddress, countingFailures } from '../http/request-guard.js';
import { type ConnectorUrls, connectorUrls, MCP_PATH, sameResource } from '../oauth/connector-urls.js';
import { isAccessToken } from '../oauth/oauth-secrets.js';
import type { KeyRateLimiter } from '../rate-limit/key-rate-limiter.js';
import type { AuthContext } from '../services/auth-service.js';
import type { Services } from '../services/index.js';
import { namesThisServer } from './allowed-hosts.js';
import { type CallContext, callApi } from './connector-call.js';
import { plainToolCall } from './plain-tool-call.js';
import { errorResult, toolResult, toolResultJson } from './tool-results.js';

export interface McpEndpointDeps {
  services: Services;
  limiter: KeyRateLimiter | undefined;
  publicUrl: () => string | undefined;
  bodyTimeouts: BodyTimeouts;
  /** The API's routers: tool calls run through them as API requests. */
  api: () => RequestListener;
  version: string;
}

/**
 * One for every request's server: it only checks what a client answers to a server's questions
 * (elicitation), which this connector never asks, and building one (Ajv and its formats) cost more than
 * the tool call it came with.
 */
const SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

const jsonRpcError = (res: Response, status: number, message: string) =>
  res.status(status).json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });

/** The 401/403 of `/mcp`: the API's error body, and the challenge that sends a client to sign in (RFC 9728). */
function refuse(res: Response, error: ApiHttpError, resourceMetadata: string | undefined, presented: boolean): void {
  if (error.status === 401) {
    const challenge = [`Bearer resource_metadata="${resourceMetadata ?? ''}"`];
    if (presented) challenge.push(`error="invalid_token"`, `error_description="${error.message.replace(/"/g, "'")}"`);
    res.set('WWW-Authenticate', challenge.join(', '));
  } else {
    res.set(error.headers);
  }
  res.status(error.status).json(apiErrorBody(error));
}

const unknownTool = (name: string) =>
  errorResult(404, { error: `Unknown tool: ${name}`, code: 'not_found', details: null });

/** Where a tool call runs: the API, the tools the grant may list, and the credential its `/mcp` request verified. */
interface ToolCaller {
  deps: McpEndpointDeps;
  tools: ReadonlyMap<string, AssistantTool>;
  call: CallContext;
}

/** A tool call by name: the API request it stands for, shaped as MCP's result. */
async function runTool({ deps, tools, call }: ToolCaller, name: string, args: Record<string, unknown>) {
  const tool = tools.get(name);
  if (!tool) return unknownTool(name);
  return toolResult(tool, await callApi(deps.api(), tool, args, call));
}

/** `runTool`'s result as JSON text (a record's written around the API's own JSON: tool-results.ts). */
async function runToolJson({ deps, tools, call }: ToolCaller, name: string, args: Record<string, unknown>) {
  const tool = tools.get(name);
  if (!tool) return JSON.stringify(unknownTool(name));
  return toolResultJson(tool, await callApi(deps.api(), tool, args, call));
}

/** The MCP server of one request (stateless: any instance serves any request, as the load balancer picks). */
function mcpServer(
  deps: McpEndpointDeps,
  tools: ReadonlyMap<string, AssistantTool>,
  auth: AuthContext,
  call: CallContext,
): Server {
  const server = new Server(
    { name: 'vsf', title: 'Vehicle Storage Facility', version: deps.version },
    {
      jsonSchemaValidator: SCHEMA_VALIDATOR,
      capabilities: { tools: { listChanged: false } },
      instructions:
        'Tools for one facility team’s records (cars, customers, parking, appointments, messages, marketing). Each tool is one API operation; list tools return one page and say how to ask for the next. Confirm destructive tools (deletes, sends) with the person first.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...tools.values()].filter((tool) => toolAllowed(tool, auth.scopes)).map(toolListEntry),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) =>
    runTool({ deps, tools, call }, request.params.name, (request.params.arguments ?? {}) as Record<string, unknown>),
  );
  return server;
}

/**
 * The connector's URLs for the server's public address, and whether a token's resource names them: both
 * computed again only when what they depend on changes (the address is set once; a client's tokens all
 * name the same resource), not parsed from strings on each request.
 */
function connectorAddress() {
  let known: { publicUrl: string; urls: ConnectorUrls } | undefined;
  let checked: { urls: ConnectorUrls; resource: string; same: boolean } | undefined;
  return {
    urls(publicUrl: string | undefined): ConnectorUrls | undefined {
      if (!publicUrl) return undefined;
      if (known?.publicUrl !== publicUrl) known = { publicUrl, urls: connectorUrls(publicUrl) };
      return known.urls;
    },
    isResource(resource: string, urls: ConnectorUrls): boolean {
      if (checked?.urls !== urls || checked.resource !== resource) {
        checked = { urls, resource, same: sameResource(resource, urls.resource) };
      }
      return checked.same;
    },
  };
}

/**
 * `/mcp`: the assistant connector over MCP's Streamable HTTP, stateless (no session to lose when an
 * instance restarts). A request names this server (no DNS rebinding), carries an OAuth access token
 * checked by the API's own authentication, and gets the tools its grant's scopes allow.
 */
export function mcpEndpoint(deps: McpEndpointDeps): Router {
  const tools = new Map(deriveAssistantTools().map((tool) => [tool.name, tool]));
  const here = connectorAddress();
  const router = Router();
  router.all(MCP_PATH, async (req: Request, res: Response) => {
    const publicUrl = deps.publicUrl();
    if (!namesThisServer(req, publicUrl)) {
      jsonRpcError(res, 403, 'Host or Origin does not name this server (DNS rebinding protection)');
      return;
    }
    const urls = here.urls(publicUrl);
    const token = bearerToken(req);
    let auth: AuthContext;
    try {
      if (token && !isAccessToken(token)) {
        throw new ApiHttpError(401, 'unauthorized', 'The connector takes OAuth access tokens, not API keys: sign in');
      }
      auth = await countingFailures(req, res, deps.limiter, async () => {
        const granted = await deps.services.auth.authenticate(token, { connector: true });
        // Bound to the connector it was issued for: one issued under another public address is not for here.
        if (urls && granted.resource && !here.isResource(granted.resource, urls)) {
          throw new ApiHttpError(
            401,
            'unauthorized',
            `The token was issued for ${granted.resource}, not ${urls.resource.href}`,
          );
        }
        return granted;
      });
    } catch (error) {
      if (!(error instanceof ApiHttpError) || (error.status !== 401 && error.status !== 403 && error.status !== 429))
        throw error;
      refuse(res, error, urls?.resourceMetadata.href, token !== undefined);
      return;
    }
    if (req.method !== 'POST') {
      res.set('Allow', 'POST');
      jsonRpcError(
        res,
        405,
        'This connector is stateless: POST JSON-RPC messages; there is no stream to GET or session to DELETE',
      );
      return;
    }
    const body = await readJsonBody(req, deps.bodyTimeouts, undefined, { checkSafety: false });
    const call: CallContext = {
      token: token as string,
      auth,
      remoteAddress: clientAddress(req),
      host: req.headers.host as string,
      requestId: res.getHeader('x-request-id') as string | undefined,
      outer: req,
    };
    const plain = plainToolCall(req, body);
    if (plain) {
      const result = await runToolJson({ deps, tools, call }, plain.name, plain.args);
      // As the SDK's transport answers it (JSON, no session), without Express's ETag of a body never cached:
      // the bytes of `JSON.stringify({ result, jsonrpc: '2.0', id })`, the result already JSON.
      const json = `{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(plain.id)}}`;
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(json) }).end(json);
      return;
    }
    const server = mcpServer(deps, tools, auth, call);
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  return router;
}
