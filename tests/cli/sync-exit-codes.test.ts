import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_SCOPES } from '@vsf/contract';
import { VsfClient } from '@vsf/sdk';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVsf, spawnVsf } from './support/run-vsf.js';

// What cron and scripts rely on, through the built `vsf` against a real server: exit codes from one table
// (3 server down, 4 key, 5 locked), one JSON document on stdout for every `--json` run that fails, a
// least-privilege key that mirrors what it may, `vsf sync status`, and `vsf sync verify` with the wrong
// team's key.
const home = mkdtempSync(join(tmpdir(), 'vsf-exit-codes-'));
const schema = `vsf_status_${Math.random().toString(36).slice(2, 8)}`;
let server: TestServer;
let teamId: string;
let key: string;
let otherTeamKey: string;
let client: VsfClient;

function vsf(args: string[], options: { key?: string; baseUrl?: string } = {}) {
  return runVsf(args, {
    env: {
      ...process.env,
      XDG_CONFIG_HOME: home,
      VSF_BASE_URL: options.baseUrl ?? server.baseUrl,
      VSF_API_KEY: options.key ?? key,
      NO_COLOR: '1',
    },
    cwd: home,
  });
}

beforeAll(async () => {
  server = await startTestServer();
  const team = await server.createTeamWithKey(ALL_SCOPES);
  ({ key } = team);
  teamId = team.team.id;
  ({ key: otherTeamKey } = await server.createTeamWithKey(ALL_SCOPES));
  client = new VsfClient({ apiKey: key, baseUrl: server.baseUrl, logLevel: 'off' });
  for (let i = 0; i < 3; i++) await client.cars.create({ year: 1980 + i, make: 'Exit', model: `E${i}` });
  await client.customers.create({ firstName: 'Ada', lastName: 'Cron' });
  const other = new VsfClient({ apiKey: otherTeamKey, baseUrl: server.baseUrl, logLevel: 'off' });
  await other.cars.create({ year: 1999, make: 'Other', model: 'Team' });
});
afterAll(async () => {
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

/** A port with nothing listening on it: taken from the OS, then released. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('--json failures: one error document on stdout', () => {
  it('a server that is down: exit 3 for sync, verify and any other command, each with {error: {code: unreachable}}', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}/api/v1`;
    for (const args of [
      ['sync', '--to', 'down.db', '--json'],
      ['sync', 'verify', '--to', 'down.db', '--json'],
      ['cars', 'list', '--json'],
    ]) {
      const res = await vsf(args, { baseUrl });
      expect(res.code, `${args.join(' ')}\n${res.stderr}`).toBe(3);
      const doc = JSON.parse(res.stdout);
      expect(doc.error).toMatchObject({ code: 'unreachable', exitCode: 3 });
      expect(doc.error.message).toContain(`cannot reach ${baseUrl}: connection refused`);
    }
    // Without --json, the stopped sync prints no table of skipped resources: the one line on stderr says it.
    const text = await vsf(['sync', '--to', 'down.db'], { baseUrl });
    expect(text.code).toBe(3);
    expect(text.stdout).toBe('');
    expect(text.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a lookup that finds nothing and a usage error print an error document too', async () => {
    const missing = await vsf(['cars', 'get', '00000000-0000-4000-8000-000000000000', '--json']);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toMatchObject({
      error: { code: 'failed', exitCode: 1, message: 'No car with id 00000000-0000-4000-8000-000000000000' },
    });
    const usage = await vsf(['sync', '--resources', 'bogus', '--json']);
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stdout)).toMatchObject({ error: { code: 'usage', exitCode: 2 } });
    const unknownOption = await vsf(['cars', 'list', '--json', '--colour']);
    expect(unknownOption.code).toBe(2);
    expect(JSON.parse(unknownOption.stdout).error.message).toContain("unknown option '--colour'");
  });

  it('a refused key: exit 4, one line on stderr and no table; with --json the summary carries the error', async () => {
    const text = await vsf(['sync', '--to', 'refused.db'], { key: 'vsf_abcdefghijkl.wrong' });
    expect(text.code).toBe(4);
    expect(text.stdout).toBe('');
    expect(text.stderr.trim().split('\n')).toHaveLength(1);
    const json = await vsf(['sync', '--to', 'refused.db', '--json', '--quiet'], { key: 'vsf_abcdefghijkl.wrong' });
    expect(json.code).toBe(4);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      stopReason: 'key-refused',
      error: { code: 'auth', exitCode: 4 },
    });
  });
});

describe('a least-privilege key', () => {
  it('mirrors what it may read: one warning line, the rest listed as forbidden, exit 0', async () => {
    const { key: carsOnly } = await server.createKey(teamId, ['read:cars']);
    const res = await vsf(['sync', '--to', 'cars-only.db'], { key: carsOnly });
    expect(res.code, res.stderr).toBe(0);
    const warnings = res.stderr.split('\n').filter((line) => line.startsWith('vsf: '));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^vsf: this key may not read \d+ of \d+ resources \(it lacks [^)]*read:customers[^)]*\): skipped [a-z_, ]*customers/,
    );
    expect(res.stdout).toMatch(/^cars\tcompleted\tlists\tfull\t1\t3\t/m);
    expect(res.stdout).toMatch(/^customers\tforbidden\t/m);
    const json = await vsf(['sync', '--to', 'cars-only.db', '--json', '--quiet'], { key: carsOnly });
    expect(json.code).toBe(0);
    expect(json.stderr).toBe('');
    const summary = JSON.parse(json.stdout);
    expect(summary.ok).toBe(true);
    expect(summary.error).toBeUndefined();
    expect(summary.resources.find((r: { resource: string }) => r.resource === 'customers').status).toBe('forbidden');
    // Verify leaves the same resources out, and the mirror it may read matches.
    const verified = await vsf(['sync', 'verify', '--to', 'cars-only.db', '--quiet'], { key: carsOnly });
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  });

  it('exits 4 when --resources names a resource it may not read, or when it may read none', async () => {
    const { key: carsOnly } = await server.createKey(teamId, ['read:cars']);
    const named = await vsf(['sync', '--to', 'named.db', '--resources', 'cars,customers', '--json'], {
      key: carsOnly,
    });
    expect(named.code).toBe(4);
    const summary = JSON.parse(named.stdout);
    expect(summary.error).toMatchObject({ code: 'auth', exitCode: 4 });
    expect(summary.resources.find((r: { resource: string }) => r.resource === 'cars').status).toBe('completed');
    const { key: webhooksOnly } = await server.createKey(teamId, ['read:webhooks']);
    const none = await vsf(['sync', '--to', 'none.db'], { key: webhooksOnly });
    expect(none.code, none.stderr).toBe(4);
    expect(none.stderr).toMatch(/this key may not read (\d+) of \1 resources/);
  });
});

describe('vsf sync verify with another team’s key', () => {
  it('says the mirror belongs to another team and exits 4, instead of listing its rows as extra', async () => {
    expect((await vsf(['sync', '--to', 'team-a.db', '--resources', 'cars'])).code).toBe(0);
    const res = await vsf(['sync', 'verify', '--to', 'team-a.db', '--resources', 'cars'], { key: otherTeamKey });
    expect(res.code).toBe(4);
    expect(res.stderr).toContain('the mirror belongs to another team');
    expect(res.stdout).not.toMatch(/extra/);
  });
});

describe('a mirror whose changes the server no longer keeps', () => {
  it('says so in words and what it did, naming no API request', async () => {
    expect((await vsf(['sync', '--to', 'resync.db', '--resources', 'cars'])).code).toBe(0);
    await client.cars.create({ year: 2001, make: 'Late', model: 'Comer' });
    // Numbered first (the server's migration 034 keeps a write's event in an inbox until a read or its drain).
    await server.services.events.numberWaiting([teamId]);
    await server
      .db('team_events')
      .where({ team_id: teamId })
      .update({ created_at: new Date(Date.now() - 40 * 86_400_000) });
    await server.services.events.pruneNow(true);
    const res = await vsf(['sync', '--to', 'resync.db', '--resources', 'cars']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(
      'vsf: the server no longer keeps the changes made since this mirror’s last sync (it keeps 30 days unless configured otherwise); synced in full instead',
    );
    expect(res.stderr).not.toMatch(/GET |\/events|limit=|410/);
  });
});

interface Follower {
  child: ChildProcess;
  stderr: string;
  stdout: string;
  exited: Promise<number | null>;
}

/** Resolves once `follower`'s output matches `pattern` (the follower's own progress, not a clock). */
function waitFor(follower: Follower, pattern: RegExp): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (pattern.test(follower.stdout + follower.stderr)) {
        follower.child.stdout?.off('data', check);
        follower.child.stderr?.off('data', check);
        resolve();
      }
    };
    follower.child.stdout?.on('data', check);
    follower.child.stderr?.on('data', check);
    check();
  });
}

describe('a mirror held by a running sync', () => {
  it('exits 5 for a second run, shows the run in vsf sync status, and timestamps each --follow line', async () => {
    const to = `sqlite:${join(home, 'held.db')}`;
    const child = spawnVsf(['sync', '--follow', '--to', to, '--resources', 'cars'], {
      env: { ...process.env, VSF_API_KEY: key, VSF_BASE_URL: server.baseUrl, XDG_CONFIG_HOME: home, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const follower: Follower = {
      child,
      stderr: '',
      stdout: '',
      exited: new Promise((resolve) => child.once('exit', resolve)),
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      follower.stdout += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      follower.stderr += chunk.toString();
    });
    try {
      // The first run's summary is printed once it has synced and holds the mirror to follow the feed.
      await waitFor(follower, /retr(y|ies)/);

      const second = await vsf(['sync', '--to', to, '--resources', 'cars', '--json']);
      expect(second.code, second.stderr).toBe(5);
      const doc = JSON.parse(second.stdout);
      expect(doc.error).toMatchObject({ code: 'locked', exitCode: 5 });
      expect(doc.error.message).toContain('Another sync is running on this mirror');

      const status = await vsf(['sync', 'status', '--to', to, '--resources', 'cars', '--json']);
      expect(status.code, status.stderr).toBe(0);
      const held = JSON.parse(status.stdout);
      expect(held).toMatchObject({ running: true, lock: { pid: child.pid, stale: false } });
      expect(held.resources[0]).toMatchObject({ resource: 'cars', mirrored: true, via: 'feed' });
      expect(held.resources[0].rows).toBeGreaterThanOrEqual(3);
      expect(held.resources[0].feedCursor).toEqual(expect.any(Number));
      const text = await vsf(['sync', 'status', '--to', to, '--resources', 'cars']);
      expect(text.stdout).toMatch(/^RESOURCE\tVIA\tLAST SYNC\tWATERMARK\tCURSOR\tROWS\tNOTE$/m);
      expect(text.stdout).toMatch(/^cars\tfeed\t\d{4}-\d\d-\d\dT[\d:.]+Z\t\d{4}-\d\d-\d\dT[\d:.]+Z\t\d+\t\d+\t$/m);
      expect(text.stdout).toMatch(new RegExp(`A run is in progress \\(vsf sync --follow, pid ${child.pid} on `));

      await client.cars.create({ year: 2002, make: 'Followed', model: 'F' });
      await waitFor(follower, /applied 1 change/);
      expect(follower.stderr).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z vsf: applied 1 change \(cursor \d+\)$/m);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await follower.exited).toBe(0);
    const after = await vsf(['sync', 'status', '--to', to]);
    expect(after.code).toBe(0);
    expect(after.stdout).toContain('No run in progress.');
    expect(after.stdout).toMatch(/^customers\tnever\t\t\t\t\tnever synced$/m);
  });

  it.each([
    ['JSONL', () => `jsonl:${join(home, 'status-jsonl')}`],
    [
      'PostgreSQL',
      () => process.env.TEST_DATABASE_URL && `${process.env.TEST_DATABASE_URL}?options=-c%20search_path%3D${schema}`,
    ],
  ])('vsf sync status reads a %s mirror as it reads SQLite', async (kind, target) => {
    const to = target();
    if (!to) {
      console.log(`vsf sync status: ${kind} skipped without TEST_DATABASE_URL`);
      return;
    }
    if (kind === 'PostgreSQL') await server.db.raw(`create schema if not exists ${schema}`);
    try {
      expect((await vsf(['sync', '--to', to, '--resources', 'cars,customers'])).code).toBe(0);
      const res = await vsf(['sync', 'status', '--to', to, '--json']);
      expect(res.code, res.stderr).toBe(0);
      const status = JSON.parse(res.stdout);
      expect(status).toMatchObject({ running: false, lock: null });
      const byName = (name: string) => status.resources.find((r: { resource: string }) => r.resource === name);
      expect(byName('cars')).toMatchObject({ mirrored: true, via: 'feed', interrupted: null });
      expect(byName('cars').rows).toBe((await client.cars.list({ limit: 1 })).total);
      expect(byName('customers')).toMatchObject({ mirrored: true, rows: 1 });
      expect(byName('cars').lastSync).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/);
      expect(byName('locations')).toMatchObject({ mirrored: false, via: 'never', rows: 0 });
    } finally {
      if (kind === 'PostgreSQL') await server.db.raw(`drop schema if exists ${schema} cascade`);
    }
  });

  it('vsf sync status of a mirror that does not exist says how to make it (exit 1, no file created)', async () => {
    const res = await vsf(['sync', 'status', '--to', 'nowhere.db', '--json']);
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout).error.message).toBe(
      'There is no mirror at nowhere.db yet: `vsf sync --to nowhere.db` makes it',
    );
    expect(existsSync(join(home, 'nowhere.db'))).toBe(false);
  });
});
