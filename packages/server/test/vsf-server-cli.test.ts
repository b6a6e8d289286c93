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
import { connectAssistant } from './support/assistant-client.js';
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

  /** The CLI with `input` on its stdin and extra environment; resolves with stdout and stderr, or rejects. */
  const cliWith = async (options: { input?: string; env?: Record<string, string> }, ...args: string[]) => {
    const running = run(tsx, [bin, ...args], {
      env: {
        ...process.env,
        VSF_ADMIN_TOKEN: adminToken,
        VSF_ADMIN_URL: `${server.url}/admin/v1`,
        ...options.env,
      },
    });
    running.child.stdin?.end(options.input ?? '');
    return running;
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

  it('adds members with a password from stdin or the environment, never from argv, and lists, updates and deletes them', async () => {
    const team = await cli('teams', 'create', 'Member Motors');
    const password = 'correct horse battery staple';
    // As an operator pipes it from a secret store: one line, its newline not part of the password.
    const created = await cliWith(
      { input: `${password}\n` },
      ...['members', 'create', team.id, '--email', 'Sam@Example.com', '--scopes', 'read:cars,write:cars'],
      '--password-stdin',
    );
    const sam = JSON.parse(created.stdout);
    expect(sam).toMatchObject({ teamId: team.id, email: 'sam@example.com', scopes: ['read:cars', 'write:cars'] });
    expect(created.stdout).not.toContain(password);
    const fromEnv = JSON.parse(
      (
        await cliWith(
          { env: { VSF_MEMBER_PASSWORD: 'another long password' } },
          ...['members', 'create', team.id, '--email', 'kim@example.com', '--scopes', 'none'],
        )
      ).stdout,
    );
    expect(fromEnv.scopes).toEqual([]);

    // Refusals, side by side: no password source and no terminal (before any request, saying what to use);
    // the server's length rule with its reason, the short password not echoed; an email already in use.
    const failure = (running: Promise<unknown>) =>
      running.then(
        () => '',
        (error: { stderr: string }) => error.stderr,
      );
    const [noSource, short, taken] = await Promise.all([
      failure(cliWith({}, 'members', 'create', team.id, '--email', 'lee@example.com', '--scopes', 'all')),
      failure(
        cliWith(
          { input: 'shorty\n' },
          ...['members', 'create', team.id, '--email', 'lee@example.com', '--scopes', 'all', '--password-stdin'],
        ),
      ),
      failure(
        cliWith(
          { input: `${password}\n` },
          ...['members', 'create', team.id, '--email', 'sam@example.com', '--scopes', 'all', '--password-stdin'],
        ),
      ),
    ]);
    expect(noSource).toContain('--password-stdin');
    expect(noSource).toContain('VSF_MEMBER_PASSWORD');
    expect(short).toContain('Use at least 8 characters');
    expect(short).not.toContain('shorty');
    expect(taken).toContain('409');

    const listed = await cli('members', 'list', team.id);
    expect(listed.map((m: { email: string }) => m.email)).toEqual(['sam@example.com', 'kim@example.com']);
    expect(JSON.stringify(listed)).not.toContain(password);

    // The member signs an assistant in with the password that came through stdin.
    const assistant = await connectAssistant(server.url, { email: 'sam@example.com', password });
    expect((await assistant.client.listTools()).tools.map((t) => t.name)).toContain('create_car');

    // By email or id; new scopes narrow what the assistant sees at once.
    const narrowed = await cli('members', 'update', team.id, 'SAM@example.com', '--scopes', 'read:cars');
    expect(narrowed).toMatchObject({ id: sam.id, scopes: ['read:cars'] });
    const tools = (await assistant.client.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('list_cars');
    expect(tools).not.toContain('create_car');
    await expect(cliWith({}, 'members', 'update', team.id, sam.id)).rejects.toMatchObject({
      stderr: expect.stringContaining('Nothing to change'),
    });

    // A new password ends the grants the member gave.
    const [grant] = await cli('grants', 'list', team.id);
    expect(grant).toMatchObject({ memberEmail: 'sam@example.com', clientName: 'Test Assistant', revokedAt: null });
    await cliWith({ input: 'a brand new password\n' }, 'members', 'update', team.id, sam.id, '--password-stdin');
    const [ended] = await cli('grants', 'list', team.id);
    expect(ended.revokedAt).not.toBeNull();
    await expect(assistant.client.listTools()).rejects.toThrow();
    await assistant.client.close().catch(() => {});
    // The old password no longer signs in; the new one does.
    await expect(connectAssistant(server.url, { email: 'sam@example.com', password })).rejects.toThrow();
    const again = await connectAssistant(server.url, { email: 'sam@example.com', password: 'a brand new password' });
    await again.client.close();

    expect(await cli('members', 'delete', team.id, 'kim@example.com')).toEqual({ id: fromEnv.id, deleted: true });
    expect((await cli('members', 'list', team.id)).map((m: { id: string }) => m.id)).toEqual([sam.id]);
    await expect(cliWith({}, 'members', 'delete', team.id, 'kim@example.com')).rejects.toMatchObject({
      stderr: expect.stringContaining('No member with email kim@example.com'),
    });
  }, 180_000);

  it("lists a team's assistant grants and revokes one: the assistant is refused on its next request", async () => {
    const team = await cli('teams', 'create', 'Grant Motors');
    const member = { email: 'grants@example.com', password: 'correct horse battery staple' };
    await cliWith(
      { input: `${member.password}\n` },
      ...['members', 'create', team.id, '--email', member.email, '--scopes', 'all', '--password-stdin'],
    );
    expect(await cli('grants', 'list', team.id)).toEqual([]);
    const { client } = await connectAssistant(server.url, member, { tick: () => ['read:cars'] });
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('list_cars');

    const grants = await cli('grants', 'list', team.id);
    expect(grants).toHaveLength(1);
    expect(grants[0]).toMatchObject({
      teamId: team.id,
      memberEmail: member.email,
      clientName: 'Test Assistant',
      scopes: ['read:cars'],
      revokedAt: null,
    });
    const revoked = await cli('grants', 'revoke', team.id, grants[0].id);
    expect(revoked).toMatchObject({ id: grants[0].id, revokedAt: expect.any(String) });
    await expect(client.listTools()).rejects.toThrow();
    await client.close().catch(() => {});
    // Another team's id for the grant is not found.
    const other = await cli('teams', 'create', 'Other Motors');
    await expect(cliWith({}, 'grants', 'revoke', other.id, grants[0].id)).rejects.toMatchObject({
      stderr: expect.stringContaining('404'),
    });
  }, 180_000);

  it('fails with a clear message when the admin token is wrong', async () => {
    const failed = run(tsx, [bin, 'teams', 'list'], {
      env: { ...process.env, VSF_ADMIN_TOKEN: 'wrong-token-wrong-token', VSF_ADMIN_URL: `${server.url}/admin/v1` },
    });
    await expect(failed).rejects.toMatchObject({ stderr: expect.stringContaining('401: Invalid admin token') });
  }, 30_000);
});
