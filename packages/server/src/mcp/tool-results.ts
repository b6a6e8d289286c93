import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type AssistantTool, assistantToolResult, toolErrorResult } from '@vsf/contract';
import type { ApiAnswer } from './connector-call.js';

/** A refusal as the API sent it (status, `error`, `code`, `details`): a result the assistant reads, not a protocol error. */
export function errorResult(status: number, body: unknown): CallToolResult {
  return toolErrorResult(status, body);
}

/**
 * The API's answer as a tool result, shaped by the contract's `assistantToolResult` (the one shaping `vsf mcp`
 * uses too): the JSON body as `structuredContent` and as text, a list's next-page hint, an image as image content.
 */
export function toolResult(tool: AssistantTool, answer: ApiAnswer): CallToolResult {
  const contentType = answer.headers['content-type'];
  return assistantToolResult(tool, {
    status: answer.status,
    body: answer.body,
    contentType: contentType === undefined ? undefined : String(contentType),
    base64: tool.binaryResponse && answer.bytes ? answer.bytes.toString('base64') : undefined,
  });
}
