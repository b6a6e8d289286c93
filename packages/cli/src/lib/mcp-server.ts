// `vsf mcp`: the API's operations as MCP tools over stdio, for an assistant on this machine. The tools are the
// ones the server's `/mcp` connector offers (the contract's zod-free `assistant-tools` entry), a call is the
// HTTP request the tool stands for, made with this CLI's key, and its result is shaped as the connector's.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  ASSISTANT_TOOLS,
  type AssistantTool,
  type AssistantToolResult,
  assistantToolResult,
  callIdempotencyKey,
  toolAllowed,
  toolErrorResult,
  toolHttpRequest,
  toolListEntry,
} from '@vsf/contract/assistant-tools';
import { AuthenticationError, ConnectionError, PermissionDeniedError } from '@vsf/sdk';
import { createClient, type GlobalOptions, resolveCredentials } from './context.js';
import { CliError, EXIT } from './exit-codes.js';
import { unreachableMessage } from './handle-error.js';

/** The API's own path: tool paths (`/api/v1/cars`, `/api/media/{id}`) are from the server's root. */
const API_PATH = '/api/v1';

/** How long one tool call may wait for the API (a photo upload is the slowest). */
export const TOOL_CALL_TIMEOUT_MS = 120_000;

const INSTRUCTIONS =
  'Tools for one facility team’s records (cars, customers, parking, appointments, messages, marketing), called with the API key vsf is configured with; only the tools its scopes allow are listed. Each tool is one API operation; list tools return one page and say how to ask for the next. Confirm destructive tools (deletes, sends) with the person first.';

/**
 * The server's root from the CLI's base URL: `https://storage.example.com/api/v1` → `https://storage.example.com`,
 * keeping a proxy's prefix (`https://example.com/vsf/api/v1` → `https://example.com/vsf`); a base URL that does
 * not end in the API's path stands for its origin.
 */
export function serverRoot(baseUrl: string): string {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path.endsWith(API_PATH) ? path.slice(0, -API_PATH.length) : ''}`;
}

export interface ToolCallTarget {
  /** The server's root, `https://storage.example.com` (see `serverRoot`). */
  root: string;
  apiKey: string;
  userAgent: string;
  timeoutMs?: number;
}

/** A call that got no answer: an error result in the API's shape, with `status: null` and `code: network_error`. */
function unreachableResult(error: unknown, target: ToolCallTarget): AssistantToolResult {
  const timedOut = (error as Error)?.name === 'TimeoutError';
  const cause = timedOut
    ? `no answer within ${(target.timeoutMs ?? TOOL_CALL_TIMEOUT_MS) / 1000} s`
    : new ConnectionError('', { cause: error }).reason;
  const body = { error: unreachableMessage(cause, target.root), code: 'network_error', details: null };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ status: null, ...body }) }] };
}

/** Makes the HTTP request a tool call stands for, and gives its answer as the server's connector does. */
export async function callTool(
  tool: AssistantTool,
  args: Record<string, unknown>,
  target: ToolCallTarget,
  signal?: AbortSignal,
): Promise<AssistantToolResult> {
  const request = toolHttpRequest(tool, args);
  const headers: Record<string, string> = {
    authorization: `Bearer ${target.apiKey}`,
    accept: tool.binaryResponse ? 'image/*' : 'application/json',
    'user-agent': target.userAgent,
  };
  if (request.method === 'POST') headers['idempotency-key'] = callIdempotencyKey(tool, args);
  if (request.body) headers['content-type'] = 'application/json';
  const timeout = AbortSignal.timeout(target.timeoutMs ?? TOOL_CALL_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(`${target.root}${request.url}`, {
      method: request.method,
      headers,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      ...(request.body ? { body: JSON.stringify(request.body) } : {}),
    });
  } catch (error) {
    return unreachableResult(error, target);
  }
  try {
    const contentType = response.headers.get('content-type') ?? '';
    if (!contentType.includes('json')) {
      const bytes = Buffer.from(await response.arrayBuffer());
      return assistantToolResult(tool, {
        status: response.status,
        body: undefined,
        contentType,
        base64: tool.binaryResponse && response.ok ? bytes.toString('base64') : undefined,
      });
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return assistantToolResult(tool, { status: response.status, body });
  } catch (error) {
    // The connection broke while the body was read.
    return unreachableResult(error, target);
  }
}

/**
 * The MCP server of `vsf mcp`: lists the tools `scopes` allow; a call of any tool is made (one the key may not
 * use gets the API's own 403 as an error result, as on the server's connector).
 */
export function mcpServer(scopes: ReadonlySet<string>, target: ToolCallTarget, version: string): Server {
  const server = new Server(
    { name: 'vsf', title: 'Vehicle Storage Facility', version },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  const listed = ASSISTANT_TOOLS.filter((tool) => toolAllowed(tool, scopes)).map(toolListEntry);
  const byName = new Map(ASSISTANT_TOOLS.map((t) => [t.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      return toolErrorResult(404, { error: `Unknown tool: ${request.params.name}`, code: 'not_found', details: null });
    }
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    return callTool(tool, args, target, extra.signal);
  });
  return server;
}

/**
 * Runs `vsf mcp`: checks the key once (`GET /auth/key`) for its scopes, then serves the tools they allow over
 * stdin/stdout until the assistant closes stdin. Only JSON-RPC goes to stdout; anything else to stderr.
 */
export async function serveMcp(globals: GlobalOptions, version: string): Promise<void> {
  // Whatever a library might print would corrupt the protocol: console output goes to stderr.
  for (const method of ['log', 'info', 'debug'] as const) console[method] = console.error;
  const client = createClient(globals);
  // createClient has refused a missing key.
  const apiKey = resolveCredentials(globals).apiKey as string;
  let scopes: readonly string[];
  try {
    scopes = (await client.auth.getKey()).scopes;
  } catch (error) {
    if (error instanceof AuthenticationError || error instanceof PermissionDeniedError)
      throw new CliError(
        `the API key was refused by ${client.baseUrl}: ${error.message}. Check it with: vsf auth status`,
        EXIT.auth,
      );
    throw error;
  }
  const granted = new Set(scopes);
  const allowed = ASSISTANT_TOOLS.filter((tool) => toolAllowed(tool, granted)).length;
  const target: ToolCallTarget = {
    root: serverRoot(client.baseUrl),
    apiKey,
    userAgent: `vsf-cli/${version} (mcp)`,
  };
  const server = mcpServer(granted, target, version);
  const transport = new StdioServerTransport();
  await server.connect(transport);
  // The assistant quits by closing stdin: close the server too, so the process can end.
  process.stdin.once('end', () => void server.close());
  if (!globals.quiet) process.stderr.write(`vsf mcp: serving ${allowed} tools for ${client.baseUrl} over stdio\n`);
}
