// The `@vsf/contract/assistant-tools` entry: the API's operations as MCP tools, without zod (the CLI's
// `vsf mcp` loads it). The tools themselves are generated from the contract by `pnpm generate`.

export { ASSISTANT_TOOLS } from '../generated/assistant-tools.js';
export * from './assistant-tool.js';
export * from './call-idempotency-key.js';
export * from './tool-result.js';
