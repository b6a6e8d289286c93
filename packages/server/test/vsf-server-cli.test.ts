import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCaller } from './support/api-caller.js';
import { TINY_PNG } from './support/endpoint-fixtures.js';

const run = promisify(execFile);
const bin = join(import.meta.dirname, '../src/bin/vsf-server.ts');
const tsx = join(import.meta.dirname, '../../../node_modules/.bin/tsx');
const adminToken = 'cli-test-admin-token-0123456789';

/** Starts `vsf-server start` as a user would and resolves once it prints where it listens. */
function startServerProcess(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(tsx, [bin, 'start'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match && /Admin:.*\n/.test(output)) {
        resolve({ child, url: match[1] as string, output: () => output });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`vsf-server exited with ${code}:\n${output}`)));
  });
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

describe('vsf-server start on the embedded database', () => {
  const base = mkdtempSync(join(tmpdir(), 'vsf-data-'));
  // As in a checkout: the database in <base>/data, photo bytes beside it in <base>/media.
  const dataDir = join(base, 'data');
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('prints a working demo key with every scope on a new database, and nothing secret on later starts', async () => {
    const first = await startServerProcess({ VSF_DATA_DIR: dataDir });
    const key = /VSF_API_KEY=(\S+)/.exec(first.output())?.[1];
    expect(key).toMatch(/^vsf_[0-9a-z]{12}\./);
    const health = await fetch(`${first.url}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok' });
    const api = apiCaller(`${first.url}/api/v1`, key);
    const whoami = await api('GET', '/auth/key');
    expect(whoami.body.data.scopes).toHaveLength(24);
    const car = await api('POST', '/cars', { body: { year: 1965, make: 'Shelby', model: 'Cobra' } });
    expect(car.status).toBe(201);
    const zone = await api('POST', '/parking-zones', { body: { name: 'Hall A' } });
    const event = await api('POST', `/cars/${car.body.data.id}/events`, {
      body: { activityType: 'drop_off', parkingZoneId: zone.body.data.id },
    });
    const photo = await api('POST', `/cars/${car.body.data.id}/photos`, {
      body: { sessionId: event.body.data.sessionId, filename: 'f.png', contentType: 'image/png', base64: TINY_PNG },
    });
    expect(photo.status).toBe(201);
    expect(await stop(first.child)).toBe(0);

    const second = await startServerProcess({ VSF_DATA_DIR: dataDir });
    expect(second.output()).not.toContain('VSF_API_KEY=');
    const kept = await apiCaller(`${second.url}/api/v1`, key)('GET', `/cars/${car.body.data.id}`);
    expect(kept.status).toBe(200);
    // Photo bytes live on disk beside the database and survive the restart too.
    const media = await fetch(`${second.url}${photo.body.data.url}`, { headers: { authorization: `Bearer ${key}` } });
    expect(media.status).toBe(200);
    expect(Buffer.from(await media.arrayBuffer())).toEqual(Buffer.from(TINY_PNG, 'base64'));
    expect(existsSync(join(base, 'media'))).toBe(true);
    expect(await stop(second.child)).toBe(0);
  }, 120_000);
});

describe('vsf-server admin commands', () => {
  let server: Awaited<ReturnType<typeof startServerProcess>>;
  const cli = async (...args: string[]) => {
    const { stdout } = await run(tsx, [bin, ...args], {
      env: { ...process.env, VSF_ADMIN_TOKEN: adminToken, VSF_ADMIN_URL: `${server.url}/admin/v1` },
    });
    return JSON.parse(stdout);
  };

  beforeAll(async () => {
    server = await startServerProcess({ VSF_DATA_DIR: 'memory://', VSF_ADMIN_TOKEN: adminToken });
  }, 120_000);
  afterAll(() => stop(server.child));

  it('creates a team and a key, lists keys without secrets, disables the API and revokes the key', async () => {
    const team = await cli('teams', 'create', 'Cli Motors');
    expect(team).toMatchObject({ name: 'Cli Motors', apiEnabled: true });
    const key = await cli('keys', 'create', team.id, '--name', 'feed', '--scopes', 'read:cars');
    expect(key.scopes).toEqual(['read:cars']);
    const api = apiCaller(`${server.url}/api/v1`, key.key);
    expect((await api('GET', '/cars')).status).toBe(200);

    const listed = await cli('keys', 'list', team.id);
    expect(JSON.stringify(listed)).not.toContain(key.key.split('.')[1]);

    await cli('api', 'disable', team.id);
    expect((await api('GET', '/cars')).body.error).toBe('API is disabled for this team');
    await cli('api', 'enable', team.id);
    await cli('keys', 'revoke', key.id);
    expect((await api('GET', '/cars')).body.error).toBe('API key revoked');
  }, 120_000);

  it('fails with a clear message when the admin token is wrong', async () => {
    const failed = run(tsx, [bin, 'teams', 'list'], {
      env: { ...process.env, VSF_ADMIN_TOKEN: 'wrong-token-wrong-token', VSF_ADMIN_URL: `${server.url}/admin/v1` },
    });
    await expect(failed).rejects.toMatchObject({ stderr: expect.stringContaining('401: Invalid admin token') });
  }, 30_000);
});
