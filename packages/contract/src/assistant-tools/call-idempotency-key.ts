import { createHash } from 'node:crypto';
import type { AssistantTool } from './assistant-tool.js';

/** JSON with object keys sorted at every depth: the same arguments in any order give the same text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * A write tool call's own `Idempotency-Key`, the same for the server's connector and `vsf mcp`: the same
 * tool with the same arguments gives the same key, so an assistant that repeats a call (a retry after a
 * lost answer) replays the first answer instead of creating twice. Keys are per credential (a grant or an
 * API key), and replays last the API's 24 hours.
 */
export function callIdempotencyKey(tool: Pick<AssistantTool, 'name'>, args: Record<string, unknown>): string {
  return `mcp-${createHash('sha256')
    .update(`${tool.name}\n${canonicalJson(args)}`)
    .digest('hex')
    .slice(0, 48)}`;
}
