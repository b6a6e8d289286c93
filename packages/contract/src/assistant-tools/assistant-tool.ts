// Zod-free: the CLI's `vsf mcp` and the server's connector both load this (the `assistant-tools` entry).

/** A JSON Schema object, as MCP's `inputSchema`/`outputSchema` carry it. */
export interface JsonSchemaObject {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: string[];
  [keyword: string]: unknown;
}

/** Which scopes a tool's operation needs: every one of `all`, and at least one of `any`. */
export interface AssistantToolScopes {
  all: readonly string[];
  any?: readonly string[];
}

/**
 * One API operation offered to AI assistants as an MCP tool, derived from its contract endpoint
 * (derive-assistant-tools.ts): what `tools/list` shows, and how a call becomes the HTTP request.
 */
export interface AssistantTool {
  /** `list_cars`: the operation id in snake case (MCP's usual spelling), at most 64 of `[A-Za-z0-9_-]`. */
  name: string;
  title: string;
  description: string;
  /** Path, query and body parameters together, from the same zod definitions the server validates with. */
  inputSchema: JsonSchemaObject;
  /** The success body the API answers with; absent for bytes (`downloadMedia`). */
  outputSchema?: JsonSchemaObject;
  annotations: {
    title: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
  operationId: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** From the server's root: `/api/v1/cars/{carId}`. */
  path: string;
  pathParams: string[];
  queryParams: string[];
  bodyParams: string[];
  scopes: AssistantToolScopes;
  /** A list: one page per call, `page` asks for the next. */
  paginated: boolean;
  /** The success body is bytes (an image), not JSON. */
  binaryResponse: boolean;
}

/** The HTTP request a tool call stands for. */
export interface ToolHttpRequest {
  method: AssistantTool['method'];
  /** Path and query, from the server's root: `/api/v1/cars?page=2`. */
  url: string;
  body?: Record<string, unknown>;
}

/** Operation id to tool name: `listCars` → `list_cars`, `getAuthKey` → `get_auth_key`. */
export function toolNameOf(operationId: string): string {
  return operationId.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** Whether `scopes` allow the tool's operation (the same rule the server checks first). */
export function toolAllowed(tool: Pick<AssistantTool, 'scopes'>, scopes: ReadonlySet<string>): boolean {
  if (!tool.scopes.all.every((s) => scopes.has(s))) return false;
  return !tool.scopes.any || tool.scopes.any.length === 0 || tool.scopes.any.some((s) => scopes.has(s));
}

function queryValue(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(',');
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * The request a call with `args` stands for: path parameters into the path, query parameters into the
 * query, the rest into the JSON body. Nothing is checked here: the API validates it, so a bad argument
 * gets the API's own 400 (an argument no parameter names goes to the body, where it is refused by name).
 */
export function toolHttpRequest(tool: AssistantTool, args: Record<string, unknown>): ToolHttpRequest {
  let path = tool.path;
  for (const name of tool.pathParams) {
    const value = args[name];
    // A missing id is still a request, for an id no record has: the API answers 404 as for any unknown one.
    path = path.replace(`{${name}}`, encodeURIComponent(value === undefined ? '' : String(value)) || '-');
  }
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  // An operation without a body takes unknown arguments in its query, where the API refuses them by name.
  const hasBody = tool.bodyParams.length > 0;
  for (const [name, value] of Object.entries(args)) {
    if (tool.pathParams.includes(name) || value === undefined) continue;
    if (tool.queryParams.includes(name) || !hasBody) query.append(name, queryValue(value));
    else body[name] = value;
  }
  const search = query.toString();
  const url = search ? `${path}?${search}` : path;
  return hasBody ? { method: tool.method, url, body } : { method: tool.method, url };
}

/** What a list tool's text says after its page, so an assistant knows whether and how to ask for more. */
export function nextPageHint(tool: AssistantTool, page: { page: number; limit: number; total: number }): string {
  const shown = Math.min(page.page * page.limit, page.total);
  if (shown >= page.total) return `Page ${page.page}: records up to ${shown} of ${page.total}; this is the last page.`;
  return `Page ${page.page}: records up to ${shown} of ${page.total}. For the next page call ${tool.name} with the same arguments and page=${page.page + 1}.`;
}
