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
    body: answerBody(answer),
    contentType: contentType === undefined ? undefined : String(contentType),
    base64: tool.binaryResponse && answer.bytes ? answer.bytes.toString('base64') : undefined,
  });
}

/** The answer's JSON body, parsed; `undefined` for bytes or no content (a 204), as for any client. */
export function answerBody(answer: ApiAnswer): unknown {
  return answer.json === undefined || answer.json === '' ? undefined : JSON.parse(answer.json);
}

/**
 * `toolResult`'s JSON text, what `tools/call` answers with. A record (a JSON object, with no next page
 * to hint at) is the result's `text` and its `structuredContent` both: the result is written around the
 * API's JSON as it came, which is then neither parsed nor serialized again, only escaped once as the
 * text. The same bytes as `JSON.stringify(toolResult(tool, answer))` (tool-results.test.ts); any other
 * answer is that.
 */
export function toolResultJson(tool: AssistantTool, answer: ApiAnswer): string {
  const { json } = answer;
  if (answer.status < 400 && !tool.binaryResponse && !tool.paginated && json?.startsWith('{')) {
    return `{"content":[{"type":"text","text":${JSON.stringify(json)}}],"structuredContent":${json}}`;
  }
  return JSON.stringify(toolResult(tool, answer));
}
