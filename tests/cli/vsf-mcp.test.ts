// `vsf mcp` as a desktop assistant runs it: the built `vsf` started over stdio by the official MCP client,
// with the key and base URL in its environment, against a started server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The MCP SDK through `@vsf/cli`'s own dependency (the version `vsf mcp` is built with): the tests package
// does not depend on it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ASSISTANT_TOOLS, toolAllowed } from '@vsf/contract/assistant-tools';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtVsf, runVsf } from './support/run-vsf.js';

const SCOPES = ['read:cars', 'write:cars'];
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const home = mkdtempSync(join(tmpdir(), 'vsf-mcp-'));

let server: TestServer;
let key: string;
let client: Client;
let stderr = '';
const protocolErrors: Error[] = [];

type ToolResult = Awaited<ReturnType<Client['callTool']>>;
const textOf = (result: ToolResult, index = 0): string =>
  ((result.content as { type: string; text?: string }[])[index]?.text ?? '') as string;
const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });

function env(apiKey: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    XDG_CONFIG_HOME: home,
    VSF_BASE_URL: server.baseUrl,
    VSF_API_KEY: apiKey,
    VSF_LOG: '',
    NO_COLOR: '1',
  };
}

beforeAll(async () => {
  server = await startTestServer();
  key = (await server.createTeamWithKey(SCOPES)).key;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [builtVsf(), 'mcp'],
    env: env(key),
    cwd: home,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  client = new Client({ name: 'vsf-mcp-test', version: '1.0.0' });
  // A line on stdout that is not JSON-RPC would land here.
  client.onerror = (error) => protocolErrors.push(error);
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('vsf mcp', () => {
  it('introduces itself and lists exactly the tools the key’s scopes allow', async () => {
    expect(client.getServerVersion()?.name).toBe('vsf');
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    const { tools } = await client.listTools();
    const granted = new Set(SCOPES);
    const expected = ASSISTANT_TOOLS.filter((t) => toolAllowed(t, granted)).map((t) => t.name);
    expect(tools.map((t) => t.name).sort()).toEqual(expected.sort());
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['list_cars', 'create_car', 'get_auth_key']));
    expect(tools.map((t) => t.name)).not.toContain('list_customers');
    const listCars = tools.find((t) => t.name === 'list_cars');
    expect(listCars?.annotations?.readOnlyHint).toBe(true);
    expect(listCars?.outputSchema).toBeDefined();
    expect(listCars).not.toHaveProperty('method');
    expect(stderr).toContain(`serving ${expected.length} tools`);
  });

  it('calls a write tool once for a repeated call, and read tools with structured content and the next page', async () => {
    const args = { year: 1967, make: 'Ford', model: 'Mustang' };
    const created = await call('create_car', args);
    expect(created.isError).toBeFalsy();
    const car = (created.structuredContent as { data: { id: string; make: string } }).data;
    expect(car.make).toBe('Ford');
    expect(JSON.parse(textOf(created))).toEqual(created.structuredContent);
    // The same call again (an assistant's retry) carries the same idempotency key: the first answer, no new car.
    const again = await call('create_car', args);
    expect((again.structuredContent as { data: { id: string } }).data.id).toBe(car.id);
    await call('create_car', { year: 1970, make: 'Plymouth', model: 'Barracuda' });

    const got = await call('get_car', { carId: car.id });
    expect((got.structuredContent as { data: { model: string } }).data.model).toBe('Mustang');

    const listed = await call('list_cars', { limit: 1 });
    expect(listed.structuredContent).toMatchObject({ page: 1, limit: 1, total: 2 });
    expect(textOf(listed, 1)).toBe(
      'Page 1: records up to 1 of 2. For the next page call list_cars with the same arguments and page=2.',
    );
    const second = await call('list_cars', { limit: 1, page: 2 });
    expect(textOf(second, 1)).toContain('this is the last page');
  });

  it('gives a photo’s bytes as image content', async () => {
    const created = await call('create_car', { year: 1999, make: 'Saab', model: '9-3' });
    const carId = (created.structuredContent as { data: { id: string } }).data.id;
    const event = await call('create_car_event', { carId, activityType: 'inspection' });
    const sessionId = (event.structuredContent as { data: { sessionId: string } }).data.sessionId;
    const photo = await call('create_car_photo', {
      carId,
      sessionId,
      filename: 'p.png',
      contentType: 'image/png',
      base64: PNG,
    });
    expect(photo.isError).toBeFalsy();
    const mediaId = (photo.structuredContent as { data: { url: string } }).data.url.split('/').pop();
    const image = await call('download_media', { mediaId });
    expect(image.isError).toBeFalsy();
    expect(image.content).toEqual([{ type: 'image', data: PNG, mimeType: 'image/png' }]);
  });

  it('gives refusals as error results with the API’s body: 400, 403, 404', async () => {
    const invalid = await call('create_car', { year: 'soon', make: 'Ford' });
    expect(invalid.isError).toBe(true);
    expect(invalid.structuredContent).toBeUndefined();
    expect(JSON.parse(textOf(invalid))).toMatchObject({
      status: 400,
      code: 'validation_error',
      details: expect.arrayContaining([expect.objectContaining({ path: 'year' })]),
    });

    // Not listed for this key, and refused by the API if called anyway.
    const forbidden = await call('list_customers');
    expect(forbidden.isError).toBe(true);
    expect(JSON.parse(textOf(forbidden))).toMatchObject({ status: 403, code: 'forbidden' });

    const missing = await call('get_car', { carId: '00000000-0000-4000-8000-000000000000' });
    expect(JSON.parse(textOf(missing))).toMatchObject({ status: 404, code: 'not_found' });

    const unknown = await call('launch_rocket');
    expect(unknown.isError).toBe(true);
    expect(JSON.parse(textOf(unknown))).toMatchObject({ status: 404, error: 'Unknown tool: launch_rocket' });
  });

  it('wrote nothing but JSON-RPC to stdout', () => {
    expect(protocolErrors).toEqual([]);
  });

  it('exits 4 with a message on stderr, and nothing on stdout, when the key is refused', async () => {
    const result = await runVsf(['mcp'], { env: env('vsf_nokey.invalid'), cwd: home, timeoutMs: 30_000 });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^vsf: the API key was refused by http:\/\/127\.0\.0\.1:\d+\/api\/v1: /);
  });
});
