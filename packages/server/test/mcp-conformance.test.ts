import { spawn } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ALL_SCOPES } from '@vsf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/index.js';
import { grantToken } from './support/assistant-grants.js';

// The official MCP conformance suite against /mcp. It needs Node 22 (`npx -p node@22`) and speaks to a
// server without authentication, so a local proxy adds a real grant's access token to each request and
// passes Host and Origin through unchanged (the DNS rebinding scenario judges the server by them).
// Scenarios that apply to a server with tools; the README lists the others and why they do not apply.
export const APPLICABLE_SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'tools-call-error',
  'dns-rebinding-protection',
];
const CONFORMANCE = ['-y', '-p', 'node@22', '-p', '@modelcontextprotocol/conformance@0.1.16', '--', 'conformance'];
// Once per run: it does not depend on the database engine, so the PostgreSQL pass leaves it out.
const skip = process.env.VSF_SKIP_CONFORMANCE === '1' || Boolean(process.env.TEST_DATABASE_URL);

let server: TestServer;
let proxy: Server;
let proxyUrl: string;

function startAuthProxy(target: URL, token: string): Promise<Server> {
  const proxied = createServer((req, res) => {
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization: `Bearer ${token}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => proxied.listen(0, '127.0.0.1', () => resolve(proxied)));
}

/**
 * The environment `npx` runs the suite in: without the workspace's npm settings that `pnpm test` passes
 * down (its `engine-strict` would refuse the suite's Node 22 dependencies on this Node 20, before the
 * Node 22 it runs on is even fetched).
 */
function npxEnvironment(): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(([name]) => !/^(npm_config_|npm_package_|pnpm_)/i.test(name));
  return { ...Object.fromEntries(inherited), npm_config_update_notifier: 'false', npm_config_engine_strict: 'false' };
}

function runScenario(scenario: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', [...CONFORMANCE, 'server', '--url', proxyUrl, '--scenario', scenario], {
      env: npxEnvironment(),
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe.skipIf(skip)('MCP conformance suite against /mcp', () => {
  beforeAll(async () => {
    server = await startTestServer();
    const team = await server.createTeam();
    const token = await grantToken(server.db, team.id, ALL_SCOPES, server.origin);
    proxy = await startAuthProxy(new URL(server.origin), token);
    proxyUrl = `http://localhost:${(proxy.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy?.close(resolve));
    await server?.close();
  });

  for (const scenario of APPLICABLE_SCENARIOS) {
    it(`${scenario} passes`, async () => {
      const { code, output } = await runScenario(scenario);
      expect(output, output).toMatch(/Passed: (\d+)\/\1, 0 failed/);
      expect(output, output).not.toMatch(/FAIL(URE)?\b/);
      expect(code, output).toBe(0);
    }, 180_000);
  }
});
