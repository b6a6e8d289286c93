import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ALL_SCOPES } from '@vsf/contract';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtVsf, runVsf } from './support/run-vsf.js';

/** Start of every ANSI control sequence: output for pipes must not contain it. */
const ESC = String.fromCharCode(27);
const execFileAsync = promisify(execFile);
const home = mkdtempSync(join(tmpdir(), 'vsf-cli-'));

let server: TestServer;
let teamId: string;
let key: string;

/** Runs the built `vsf` as a user would: a separate process, its exit code, stdout and stderr. */
function vsf(args: string[], env: Record<string, string> = {}) {
  return runVsf(args, {
    env: {
      ...process.env,
      XDG_CONFIG_HOME: home,
      XDG_DATA_HOME: home,
      VSF_BASE_URL: server.baseUrl,
      VSF_API_KEY: key,
      NO_COLOR: '1',
      ...env,
    },
    cwd: home,
  });
}

beforeAll(async () => {
  server = await startTestServer();
  const created = await server.createTeamWithKey(ALL_SCOPES);
  teamId = created.team.id;
  key = created.key;
});
afterAll(async () => {
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('vsf auth', () => {
  it('status shows the team, scopes and expiry of a valid key and exits 0', async () => {
    const res = await vsf(['auth', 'status']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`Team:    ${teamId}`);
    expect(res.stdout).toContain('Expires: never');
    expect(res.stdout).not.toContain(key.split('.')[1]);
    const json = JSON.parse((await vsf(['auth', 'status', '--json'])).stdout);
    expect(json).toMatchObject({ valid: true, teamId, scopes: expect.arrayContaining(['read:cars']) });
  }, 30_000);

  it('warns when the key expires within 14 days', async () => {
    const soon = await server.createKey(teamId, ['read:cars'], {
      expiresAt: new Date(Date.now() + 3 * 86400_000).toISOString(),
    });
    const res = await vsf(['auth', 'status'], { VSF_API_KEY: soon.key });
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/warning: this key expires in 3 day/);
  }, 30_000);

  it('exits 4 with the server message for expired, revoked and invalid keys', async () => {
    const expired = await server.createKey(teamId, ['read:cars'], {
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    const revoked = await server.createKey(teamId, ['read:cars']);
    await server.admin('POST', `/keys/${revoked.id}/revoke`);
    for (const [k, message] of [
      [expired.key, 'API key expired'],
      [revoked.key, 'API key revoked'],
      ['vsf_nope', 'Invalid API key'],
    ] as const) {
      const res = await vsf(['auth', 'status'], { VSF_API_KEY: k });
      expect(res.code).toBe(4);
      expect(res.stderr).toContain(message);
    }
  }, 60_000);

  it('rotate-check passes for an equal key and fails, listing the gaps, for a narrower one', async () => {
    const equal = await server.createKey(teamId, ALL_SCOPES);
    const ok = await vsf(['auth', 'rotate-check', '--new-key', equal.key]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^OK: /);
    const narrow = await server.createKey(teamId, ['read:cars']);
    const bad = await vsf(['auth', 'rotate-check', '--new-key', narrow.key, '--json']);
    expect(bad.code).toBe(1);
    const verdict = JSON.parse(bad.stdout);
    expect(verdict.verdict).toBe('unsafe');
    expect(verdict.missingScopes).toContain('write:cars');
    const other = await server.createTeamWithKey(ALL_SCOPES);
    const foreign = await vsf(['auth', 'rotate-check', '--new-key', other.key]);
    expect(foreign.code).toBe(1);
    expect(foreign.stdout).toContain(`belongs to team ${other.team.id}`);
  }, 60_000);
});

describe('vsf cars and customers', () => {
  it('creates, updates and lists cars as an aligned table, TSV when piped, or JSON', async () => {
    const created = await vsf([
      'cars',
      'create',
      '--year',
      '1967',
      '--make',
      'Ford',
      '--model',
      'Mustang',
      '--set',
      'vin=7R02C123456',
      '--json',
    ]);
    expect(created.code).toBe(0);
    const car = JSON.parse(created.stdout);
    expect(car).toMatchObject({ year: 1967, vin: '7R02C123456' });
    const updated = JSON.parse(
      (await vsf(['cars', 'update', car.id, '--set', 'mileage=51200', '--set', 'isForSale=true', '--json'])).stdout,
    );
    expect(updated).toMatchObject({ mileage: 51200, isForSale: true });
    const piped = await vsf(['cars', 'list']);
    const lines = piped.stdout.trim().split('\n');
    expect(lines[0]).toBe('ID\tYEAR\tMAKE\tMODEL\tVIN\tSTOCK\tSPOT\tUPDATED');
    expect(
      lines
        .find((l) => l.startsWith(car.id))
        ?.split('\t')
        .slice(1, 5),
    ).toEqual(['1967', 'Ford', 'Mustang', '7R02C123456']);
    expect(piped.stdout).not.toContain(ESC);
    const all = JSON.parse((await vsf(['cars', 'list', '--all', '--json'])).stdout);
    expect(all.map((c: { id: string }) => c.id)).toContain(car.id);
    const got = JSON.parse((await vsf(['cars', 'get', car.id, '--json'])).stdout);
    expect(got.id).toBe(car.id);
  }, 60_000);

  it('reports validation problems field by field and exits 1; bad flags exit 2', async () => {
    const invalid = await vsf(['cars', 'create', '--year', '1800', '--make', 'A', '--model', 'B']);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('year:');
    expect((await vsf(['cars', 'list', '--limit', '500'])).code).toBe(2);
    expect((await vsf(['cars', 'frobnicate'])).code).toBe(2);
  }, 30_000);

  it('lists customers and event types', async () => {
    await server.db('customers'); // the server is up
    const customers = await vsf(['customers', 'list', '--json']);
    expect(customers.code).toBe(0);
    const types = await vsf(['event-types', 'list', '--scope', 'vehicle']);
    expect(types.stdout).toContain('drop_off');
  }, 30_000);
});

describe('vsf config', () => {
  it('saves profiles in an owner-only file and never prints a key in full', async () => {
    const saved = await vsf([
      'config',
      'set',
      '--profile',
      'north',
      '--api-key',
      key,
      '--base-url',
      server.baseUrl,
      '--default',
    ]);
    expect(saved.code).toBe(0);
    const file = join(home, 'vsf', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const profiles = await vsf(['config', 'profiles']);
    expect(profiles.stdout).toContain('north');
    expect(profiles.stdout).not.toContain(key.split('.')[1]);
    const viaProfile = await vsf(['auth', 'status', '--json'], { VSF_API_KEY: '', VSF_BASE_URL: '' });
    expect(JSON.parse(viaProfile.stdout).teamId).toBe(teamId);
  }, 30_000);
});

describe('vsf sync', () => {
  it('mirrors into SQLite: full the first time, incremental after, with a JSON summary for cron', async () => {
    const to = `sqlite:${join(home, 'mirror.db')}`;
    const first = await vsf(['sync', '--to', to, '--resources', 'cars,customers', '--json']);
    expect(first.code).toBe(0);
    const summary = JSON.parse(first.stdout);
    expect(summary.ok).toBe(true);
    expect(summary.resources.map((r: { mode: string }) => r.mode)).toEqual(['full', 'full']);
    expect(first.stderr).toMatch(/cars: page 1\/1/);
    expect(first.stderr).not.toContain(ESC);
    const second = await vsf(['sync', '--to', to, '--resources', 'cars,customers']);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/cars\s+completed\s+(?:feed|lists)\s+incremental/);
    const dry = await vsf(['sync', '--to', to, '--dry-run', '--json']);
    expect(JSON.parse(dry.stdout).resources.every((r: { status: string }) => r.status === 'dry-run')).toBe(true);
  }, 60_000);

  it('draws a progress bar on a terminal', async () => {
    const to = `sqlite:${join(home, 'tty.db')}`;
    const command = `${process.execPath} ${builtVsf()} sync --to ${to} --resources cars`;
    const { stdout } = await execFileAsync('script', ['-qfec', command, '/dev/null'], {
      env: { ...process.env, XDG_CONFIG_HOME: home, VSF_BASE_URL: server.baseUrl, VSF_API_KEY: key, TERM: 'xterm' },
    });
    expect(stdout).toMatch(/cars\s+\[#+/);
    expect(stdout).toMatch(/\d+\/\d+ pages/);
  }, 60_000);
});

describe('vsf dropoff, photos and pickup', () => {
  it('logs a drop-off by VIN into a spot by label, uploads a directory of photos, refuses what cannot go, then picks up', async () => {
    const api = (path: string, body: unknown) =>
      fetch(`${server.baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<{ data: { id: string } }>);
    const zone = (await api('/parking-zones', { name: 'Hall A' })).data;
    await api('/parking-spots', { name: 'A-12', parkingZoneId: zone.id });
    const car = (await api('/cars', { year: 1965, make: 'Shelby', model: 'Cobra', vin: 'CSX2000' })).data;

    const photos = join(home, 'intake');
    mkdirSync(photos, { recursive: true });
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    );
    writeFileSync(join(photos, 'front.png'), png);
    writeFileSync(join(photos, 'rear.png'), png);
    writeFileSync(join(photos, 'notes.txt'), 'not a photo');
    const huge = Buffer.alloc(3 * 1024 * 1024 + 10);
    png.copy(huge);
    writeFileSync(join(photos, 'huge.png'), huge);

    // Every file is checked first: what cannot go stops the command before anything is logged.
    const refused = await vsf(['dropoff', 'CSX2000', '--spot', 'A-12', photos, '--json']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('2 photos cannot be sent, so nothing was sent');
    expect(refused.stderr).toMatch(/huge\.png: \d+ bytes, over the 3 MiB limit/);
    expect(refused.stderr).toMatch(/notes\.txt: not an image/);
    unlinkSync(join(photos, 'notes.txt'));
    unlinkSync(join(photos, 'huge.png'));

    const drop = await vsf(['dropoff', 'CSX2000', '--spot', 'A-12', '--notes', 'scratch on door', photos, '--json']);
    const summary = JSON.parse(drop.stdout);
    expect(summary.uploaded).toHaveLength(2);
    expect(summary.skipped).toEqual([]);
    expect(drop.code).toBe(0);
    expect(drop.stderr).toContain('Dropped off 1965 Shelby Cobra at A-12');

    const gallery = await fetch(`${server.baseUrl}/cars/${car.id}/photos`, {
      headers: { authorization: `Bearer ${key}` },
    }).then((r) => r.json() as Promise<{ total: number }>);
    expect(gallery.total).toBe(2);
    const parked = await fetch(`${server.baseUrl}/cars/${car.id}`, {
      headers: { authorization: `Bearer ${key}` },
    }).then((r) => r.json() as Promise<{ data: { parkingSpot: string | null } }>);
    expect(parked.data.parkingSpot).toBe('A-12');

    const more = await vsf(['photos', 'upload', car.id, '--session', summary.sessionId, join(photos, 'front.png')]);
    expect(more.code).toBe(0);
    // The session holds it already: not sent twice.
    expect(more.stdout).toContain('0/1 photo(s) uploaded, 0 failed, 1 skipped');

    const pick = await vsf(['pickup', 'CSX2000']);
    expect(pick.code).toBe(0);
    const after = await fetch(`${server.baseUrl}/cars/${car.id}`, { headers: { authorization: `Bearer ${key}` } }).then(
      (r) => r.json() as Promise<{ data: { parkingSpot: string | null } }>,
    );
    expect(after.data.parkingSpot).toBeNull();
    const spots = await vsf(['parking', 'spots', 'list', '--free']);
    expect(spots.stdout).toContain('A-12');
  }, 90_000);

  it('refuses a drop-off without exactly one of --spot and --zone', async () => {
    expect((await vsf(['dropoff', 'CSX2000'])).code).toBe(2);
  }, 30_000);
});

describe('README commands not covered above', () => {
  it('prints its version, the package’s, for bug reports', async () => {
    const version = JSON.parse(
      readFileSync(join(import.meta.dirname, '../../packages/cli/package.json'), 'utf8'),
    ).version;
    for (const flag of ['--version', '-V'])
      expect(await vsf([flag])).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it('lists soft-deleted customers on request', async () => {
    const customer = (await (
      await fetch(`${server.baseUrl}/customers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ firstName: 'Gone', lastName: 'Customer' }),
      })
    ).json()) as { data: { id: string } };
    await fetch(`${server.baseUrl}/customers/${customer.data.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${key}` },
    });
    const hidden = JSON.parse((await vsf(['customers', 'list', '--all', '--json'])).stdout);
    expect(hidden.map((c: { id: string }) => c.id)).not.toContain(customer.data.id);
    const shown = JSON.parse((await vsf(['customers', 'list', '--include-deleted', '--all', '--json'])).stdout);
    expect(shown.find((c: { id: string }) => c.id === customer.data.id)?.deletedAt).not.toBeNull();
  }, 30_000);

  it('runs a quiet JSON sync for cron, and a full run with --prune', async () => {
    const to = `sqlite:${join(home, 'cron.db')}`;
    const quiet = await vsf(['sync', '--json', '--quiet', '--to', to]);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(JSON.parse(quiet.stdout).ok).toBe(true);
    const full = await vsf(['sync', '--full', '--prune', '--to', to, '--json', '--quiet']);
    expect(JSON.parse(full.stdout).resources.every((r: { mode: string }) => r.mode === 'full')).toBe(true);
  }, 60_000);

  it.runIf(process.env.TEST_DATABASE_URL)(
    'syncs into PostgreSQL with --to postgres://…',
    async () => {
      // A schema of its own: the test database also holds the reference server's tables.
      const schema = `vsf_cli_mirror_${Math.random().toString(36).slice(2, 8)}`;
      await server.db.raw(`create schema ${schema}`);
      const to = `${process.env.TEST_DATABASE_URL}?options=-c%20search_path%3D${schema}`;
      const res = await vsf(['sync', '--resources', 'cars,customers', '--to', to, '--json', '--quiet']);
      await server.db.raw(`drop schema ${schema} cascade`);
      expect(res.code, res.stdout + res.stderr).toBe(0);
      expect(JSON.parse(res.stdout).resources.map((r: { status: string }) => r.status)).toEqual([
        'completed',
        'completed',
      ]);
    },
    60_000,
  );
});
