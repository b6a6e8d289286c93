// Zod-free and without the MCP SDK: the server's connector (`/mcp`) and the CLI's `vsf mcp` shape their
// tool results with this one implementation, and their results are MCP `CallToolResult`s by structure.
import { type AssistantTool, nextPageHint } from './assistant-tool.js';

/** A text block of a tool result. */
export type ToolTextContent = { type: 'text'; text: string };

/** An image block of a tool result: the bytes as base64, with their media type. */
export type ToolImageContent = { type: 'image'; data: string; mimeType: string };

/** A tool result as MCP's `tools/call` answers it (a `CallToolResult` by structure). */
export type AssistantToolResult = {
  content: (ToolTextContent | ToolImageContent)[];
  structuredContent?: Record<string, unknown>;
  isError?: true;
};

/** What the API answered a tool call's request with. */
export interface ToolApiAnswer {
  status: number;
  /** The parsed JSON body; `undefined` when the body was not JSON. */
  body: unknown;
  /** The response's `Content-Type`, for an image. */
  contentType?: string | undefined;
  /** A binary body (an image) as base64. */
  base64?: string | undefined;
}

/** A refusal as the API sent it (status, `error`, `code`, `details`): a result the assistant reads, not a protocol error. */
export function toolErrorResult(status: number, body: unknown): AssistantToolResult {
  const error =
    body && typeof body === 'object'
      ? { status, ...(body as Record<string, unknown>) }
      : { status, error: 'The API answered without a JSON body', code: 'internal_error', details: null };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(error) }] };
}

function isPage(body: unknown): body is { page: number; limit: number; total: number } {
  const b = body as Record<string, unknown> | undefined;
  return typeof b?.page === 'number' && typeof b?.limit === 'number' && typeof b?.total === 'number';
}

/**
 * The API's answer as a tool result: the JSON body as `structuredContent` (what `outputSchema` describes)
 * and as text, a list's text followed by how to get the next page; an image as image content.
 */
export function assistantToolResult(tool: AssistantTool, answer: ToolApiAnswer): AssistantToolResult {
  if (answer.status >= 400) return toolErrorResult(answer.status, answer.body);
  if (tool.binaryResponse) {
    const mimeType = (answer.contentType || 'application/octet-stream').split(';')[0]?.trim() as string;
    return { content: [{ type: 'image', data: answer.base64 ?? '', mimeType }] };
  }
  const content: AssistantToolResult['content'] = [{ type: 'text', text: JSON.stringify(answer.body ?? null) }];
  if (tool.paginated && isPage(answer.body)) content.push({ type: 'text', text: nextPageHint(tool, answer.body) });
  if (!answer.body || typeof answer.body !== 'object') return { content };
  return { content, structuredContent: answer.body as Record<string, unknown> };
}

/** A tool as `tools/list` shows it: what an assistant needs to choose and call it, not how it maps to HTTP. */
export function toolListEntry(
  tool: AssistantTool,
): Pick<AssistantTool, 'name' | 'title' | 'description' | 'inputSchema' | 'outputSchema' | 'annotations'> {
  const { name, title, description, inputSchema, outputSchema, annotations } = tool;
  return { name, title, description, inputSchema, ...(outputSchema ? { outputSchema } : {}), annotations };
}
