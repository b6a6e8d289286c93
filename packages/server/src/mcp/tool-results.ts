import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type AssistantTool, nextPageHint } from '@vsf/contract';
import type { ApiAnswer } from './connector-call.js';

/** A refusal as the API sent it (status, `error`, `code`, `details`): a result the assistant reads, not a protocol error. */
export function errorResult(status: number, body: unknown): CallToolResult {
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
export function toolResult(tool: AssistantTool, answer: ApiAnswer): CallToolResult {
  if (answer.status >= 400) return errorResult(answer.status, answer.body);
  if (tool.binaryResponse) {
    const mimeType = String(answer.headers['content-type'] ?? 'application/octet-stream').split(';')[0] as string;
    return { content: [{ type: 'image', data: (answer.bytes ?? Buffer.alloc(0)).toString('base64'), mimeType }] };
  }
  const text = JSON.stringify(answer.body);
  const content: CallToolResult['content'] = [{ type: 'text', text }];
  if (tool.paginated && isPage(answer.body)) content.push({ type: 'text', text: nextPageHint(tool, answer.body) });
  return { content, structuredContent: answer.body as Record<string, unknown> };
}
