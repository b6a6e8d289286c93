import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ALL_SCOPES } from '@vsf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../src/db/connect-database.js';
import { apiCaller } from './support/api-caller.js';
import { TINY_PNG } from './support/endpoint-fixtures.js';
import { type ServerProcess, startServerProcess } from './support/server-process.js';

const run = promisify(execFile);
const bin = join(import.meta.dirname, '../src/bin/vsf-server.ts');
const tsx = join(import.meta.dirname, '../../../node_modules/.bin/tsx');
const adminToken = 'cli-test-admin-token-0123456789';

// HOST, VSF_DEMO and DATABASE_URL only as each test sets them: the defaults are under test.
const UNSET = { HOST: undefined, VSF_DEMO: undefined, DATABASE_URL: undefined };
const start = (env: Record<string, string>, args: string[] = []) =>
  startServerProcess({ ...UNSET, LOG_LEVEL: 'silent', ...env }, { args });

/** SIGTERM, as an operator stops it; resolves with the exit code. */
const stop = async (server: ServerProcess) => (await server.stop()).code;

describe('vsf-server start on the embedded database', () => {
  const base = mkdtempSync(join(tmpdir(), 'vsf-data-'));
  // As in a checkout: the database in <base>/data, photo bytes beside it in <base>/media.
  const dataDir = join(base, 'data');
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('prints a working demo key with every scope on a new database, and nothing secret on later starts', async () => {
    const first = await start({ VSF_DATA_DIR: dataDir });
    // No HOST: loopback only.
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const key = /VSF_API_KEY=(\S+)/.exec(first.output())?.[1];
    expect(key).toMatch(/^vsf_[0-9a-z]{12}\./);
    const health = await fetch(`${first.url}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok' });
    const api = apiCaller(`${first.url}/api/v1`, key);
    const whoami = await api('GET', '/auth/key');
    expect(whoami.body.data.scopes).toHaveLength(ALL_SCOPES.length);
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
    expect(await stop(first)).toBe(0);

    const second = await start({ VSF_DATA_DIR: dataDir });
    expect(second.output()).not.toContain('VSF_API_KEY=');
    const kept = await apiCaller(`${second.url}/api/v1`, key)('GET', `/cars/${car.body.data.id}`);
    expect(kept.status).toBe(200);
    // Photo bytes live on disk beside the database and survive the restart too.
    const media = await fetch(`${second.url}${photo.body.data.url}`, { headers: { authorization: `Bearer ${key}` } });
    expect(media.status).toBe(200);
    expect(Buffer.from(await media.arrayBuffer())).toEqual(Buffer.from(TINY_PNG, 'base64'));
    expect(existsSync(join(base, 'media'))).toBe(true);
    expect(await stop(second)).toBe(0);
  }, 120_000);
});

/** An IPv4 address of this machine that is not loopback, if it has one. */
const externalAddress = () =>
  Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

const reachable = (host: string, port: string) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

describe('vsf-server start listens on loopback unless HOST is set', () => {
  it.runIf(externalAddress())(
    "is unreachable on the machine's network address by default, reachable with HOST=0.0.0.0",
    async () => {
      const address = externalAddress() as string;
      const local = await start({ VSF_DATA_DIR: 'memory://' }, ['--no-demo']);
      try {
        const { port } = new URL(local.url);
        expect(await reachable('127.0.0.1', port)).toBe(true);
        expect(await reachable(address, port)).toBe(false);
      } finally {
        await stop(local);
      }
      const everywhere = await start({ VSF_DATA_DIR: 'memory://', HOST: '0.0.0.0' }, ['--no-demo']);
      try {
        expect(await reachable(address, new URL(everywhere.url).port)).toBe(true);
      } finally {
        await stop(everywhere);
      }
    },
    120_000,
  );

  it('makes no demo team on the embedded database with --no-demo, and says how to create the first team', async () => {
    const started = await start({ VSF_DATA_DIR: 'memory://' }, ['--no-demo']);
    try {
      expect(started.output()).not.toContain('VSF_API_KEY=');
      expect(started.output()).toContain('vsf-server teams create');
      expect(started.output()).toContain('VSF_ADMIN_TOKEN');
    } finally {
      await stop(started);
    }
  }, 120_000);
});

describe.runIf(process.env.TEST_DATABASE_URL)('vsf-server start on a brand-new PostgreSQL database', () => {
  // The body is collected even when skipped: no URL to parse then.
  const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://unused/unused';
  const name = `vsf_cli_${process.pid}_${Date.now()}`;
  const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).href;
  let admin: Database;
  beforeAll(async () => {
    admin = connectDatabase({ databaseUrl: adminUrl });
    await admin.knex.raw(`create database ${name}`);
  });
  afterAll(async () => {
    await admin.knex.raw(`drop database if exists ${name} with (force)`);
    await admin.close();
  });

  it('creates no team and prints no secret unless asked; with VSF_DEMO=1 it prints a working demo key', async () => {
    const plain = await start({ DATABASE_URL: databaseUrl, VSF_ADMIN_TOKEN: adminToken });
    expect(plain.output()).toContain('using PostgreSQL');
    expect(plain.output()).not.toContain('VSF_API_KEY=');
    expect(plain.output()).not.toMatch(/vsf_[0-9a-z]{12}\./);
    expect(plain.output()).toContain('vsf-server teams create');
    expect(await stop(plain)).toBe(0);
    const db = connectDatabase({ databaseUrl });
    try {
      expect(Number((await db.knex('teams').count({ n: '*' }).first())?.n)).toBe(0);
    } finally {
      await db.close();
    }

    const demo = await start({ DATABASE_URL: databaseUrl, VSF_DEMO: '1' });
    const key = /VSF_API_KEY=(\S+)/.exec(demo.output())?.[1];
    expect(key).toMatch(/^vsf_/);
    expect((await apiCaller(`${demo.url}/api/v1`, key)('GET', '/cars')).status).toBe(200);
    expect(await stop(demo)).toBe(0);

    // --demo on a database that has a team: nothing is created or printed.
    const again = await start({ DATABASE_URL: databaseUrl }, ['--demo']);
    expect(again.output()).not.toContain('VSF_API_KEY=');
    expect(again.output()).not.toContain('no team yet');
    expect(await stop(again)).toBe(0);
  }, 180_000);
});

describe('vsf-server admin commands', () => {
  let server: ServerProcess;
  const cli = async (...args: string[]) => {
    const { stdout } = await run(tsx, [bin, ...args], {
      env: { ...process.env, VSF_ADMIN_TOKEN: adminToken, VSF_ADMIN_URL: `${server.url}/admin/v1` },
    });
    return JSON.parse(stdout);
  };

  beforeAll(async () => {
    server = await start({ VSF_DATA_DIR: 'memory://', VSF_ADMIN_TOKEN: adminToken });
  }, 120_000);
  afterAll(() => stop(server));

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
