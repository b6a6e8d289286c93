import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ALL_SCOPES } from '@vsf/contract';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../..');
const tsx = join(root, 'node_modules/.bin/tsx');

let server: TestServer;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  server = await startTestServer();
  const { key } = await server.createTeamWithKey(ALL_SCOPES);
  env = { ...process.env, VSF_API_KEY: key, VSF_BASE_URL: server.baseUrl };
});
afterAll(() => server?.close());

describe('examples/sdk', () => {
  it('create-customer-and-car creates both, linked', async () => {
    const { stdout } = await run(tsx, [join(root, 'examples/sdk/create-customer-and-car.ts')], { env, cwd: root });
    const out = JSON.parse(stdout);
    expect(out.owner).toBe(out.customerId);
  }, 30_000);

  it('list-cars-updated-since lists the cars changed since a date', async () => {
    const before = new Date().toISOString();
    await run(tsx, [join(root, 'examples/sdk/create-customer-and-car.ts')], { env, cwd: root });
    const { stdout, stderr } = await run(tsx, [join(root, 'examples/sdk/list-cars-updated-since.ts'), before], {
      env,
      cwd: root,
    });
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(stdout).toContain('Mustang');
    expect(stderr).toContain(`1 car(s) updated since ${before}`);
  }, 30_000);
});
