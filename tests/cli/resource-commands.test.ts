// Issue 33: every standard resource has `vsf <resource> list|get|create|update|delete`, made from the
// contract, beside the hand-written commands. Run through the built `vsf` against a real server, for every
// top-level resource the generated table holds: create (where a body of its required text fields is enough),
// get, list with a filter, update and delete; and for every resource, its operations exist as commands.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_SCOPES } from '@vsf/contract';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCE_COMMANDS } from '../../packages/cli/src/generated/resource-commands.js';
import { runVsf } from './support/run-vsf.js';

const home = mkdtempSync(join(tmpdir(), 'vsf-resources-'));
let server: TestServer;
let env: NodeJS.ProcessEnv;
const vsf = (...args: string[]) => runVsf(args, { env, cwd: home });

beforeAll(async () => {
  server = await startTestServer();
  const { key } = await server.createTeamWithKey(ALL_SCOPES);
  env = { ...process.env, XDG_CONFIG_HOME: home, NO_COLOR: '1', VSF_API_KEY: key, VSF_BASE_URL: server.baseUrl };
});
afterAll(async () => {
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('generated resource commands', () => {
  it('offer every operation of every resource, each with help', async () => {
    expect(RESOURCE_COMMANDS.length).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const resource of RESOURCE_COMMANDS) {
      const help = await vsf(...resource.command, '--help');
      for (const operation of Object.keys(resource.operations))
        if (!new RegExp(`^\\s+${operation}\\b`, 'm').test(help.stdout))
          missing.push(`${resource.command.join(' ')} ${operation}`);
    }
    expect(missing).toEqual([]);
  }, 120_000);

  it('create, get, list, update and delete an asset folder (a resource with no hand-written command)', async () => {
    const created = await vsf('marketing', 'asset-folders', 'create', '--set', 'name=Brochures', '--json');
    expect(created.code, created.stderr).toBe(0);
    const folder = JSON.parse(created.stdout) as { id: string; name: string };
    expect(folder.name).toBe('Brochures');

    const shown = await vsf('marketing', 'asset-folders', 'get', folder.id);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/ID\s+NAME/);
    expect(shown.stdout).toContain('Brochures');

    const updated = await vsf('marketing', 'asset-folders', 'update', folder.id, '--set', 'name=Flyers', '--json');
    expect(JSON.parse(updated.stdout)).toMatchObject({ id: folder.id, name: 'Flyers' });

    const listed = await vsf('marketing', 'asset-folders', 'list', '--json');
    expect((JSON.parse(listed.stdout) as { id: string }[]).map((f) => f.id)).toContain(folder.id);

    const deleted = await vsf('marketing', 'asset-folders', 'delete', folder.id);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain(`deleted ${folder.id}`);
    const gone = await vsf('marketing', 'asset-folders', 'get', folder.id);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/not found/i);
  }, 60_000);

  it('take the parents’ ids first on a nested resource, and filter a list (a bad value is the server’s 400)', async () => {
    const car = JSON.parse(
      (await vsf('cars', 'create', '--year', '1967', '--make', 'Ford', '--model', 'Mustang', '--json')).stdout,
    ) as { id: string };
    const events = await vsf('cars', 'events', 'list', car.id, '--json');
    expect(events.code, events.stderr).toBe(0);
    expect(JSON.parse(events.stdout)).toEqual([]);
    const sms = JSON.parse(
      (await vsf('marketing', 'templates', 'create', '--set', 'name=Ready', '--set', 'channel=sms', '--json')).stdout,
    ) as { id: string };
    const ids = async (...filter: string[]) =>
      (JSON.parse((await vsf('marketing', 'templates', 'list', ...filter, '--json')).stdout) as { id: string }[]).map(
        (t) => t.id,
      );
    expect(await ids('--filter', 'channel=sms')).toContain(sms.id);
    expect(await ids('--filter', 'channel=email')).not.toContain(sms.id);
    const unknown = await vsf('marketing', 'templates', 'list', '--filter', 'channel=fax');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/channel/);
  }, 60_000);

  it('refuse a field the body does not have before sending anything (exit 2), naming the fields', async () => {
    const wrong = await vsf('marketing', 'templates', 'create', '--set', 'colour=red');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/has no field "colour"/);
    expect(wrong.stderr).toMatch(/channel/);
  });
});
