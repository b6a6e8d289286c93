export { grantToken } from '../../src/testing/grant-token.js';

export interface ToolAnswer {
  /** JSON-RPC level: a protocol error here is itself a failure of the connector. */
  protocolError?: unknown;
  isError: boolean;
  /** The API's error body with its status, when `isError`. */
  error?: { status: number; error: string; code?: string; details?: unknown };
  structuredContent?: unknown;
}

/** tools/list and tools/call over plain HTTP with the token, as any MCP client sends them. */
export function toolCaller(origin: string, token: string) {
  let id = 0;
  const rpc = async (method: string, params?: unknown) => {
    const res = await fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, ...(params ? { params } : {}) }),
    });
    if (res.status !== 200) throw new Error(`/mcp answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { result?: Record<string, unknown>; error?: unknown };
  };
  return {
    async list(): Promise<string[]> {
      const { result } = await rpc('tools/list');
      return ((result?.tools ?? []) as { name: string }[]).map((t) => t.name);
    },
    async call(name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
      const { result, error } = await rpc('tools/call', { name, arguments: args });
      if (error || !result) return { protocolError: error, isError: true };
      const text = ((result.content ?? []) as { type: string; text?: string }[]).find((c) => c.type === 'text')?.text;
      if (result.isError) return { isError: true, error: text ? JSON.parse(text) : undefined };
      return { isError: false, structuredContent: result.structuredContent };
    },
  };
}
