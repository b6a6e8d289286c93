import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_SCOPES } from '@vsf/contract';
import { type V1Car, VsfClient } from '@vsf/sdk';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVsf } from './support/run-vsf.js';

// `vsf sync verify` through the built bin on each kind of mirror: in step it exits 0; after a row is
// deleted from the mirror, a value changed in it and a row added to it, it names all three and exits
// 1; `vsf sync --full --prune` repairs a SQL mirror. Server changes made after the last sync are
// pending, not drift; soft-deleted customers compare as the sync stores them.
const home = mkdtempSync(join(tmpdir(), 'vsf-verify-'));
let server: TestServer;
let key: string;
let client: VsfClient;
let cars: V1Car[];

function vsf(args: string[]) {
  return runVsf(args, {
    env: { ...process.env, XDG_CONFIG_HOME: home, VSF_BASE_URL: server.baseUrl, VSF_API_KEY: key, NO_COLOR: '1' },
    cwd: home,
  });
}

beforeAll(async () => {
  server = await startTestServer();
  ({ key } = await server.createTeamWithKey(ALL_SCOPES));
  client = new VsfClient({ apiKey: key, baseUrl: server.baseUrl, logLevel: 'off' });
  cars = [];
  for (let i = 0; i < 6; i++) {
    cars.push(await client.cars.create({ year: 1980 + i, make: 'Verify', model: `V${i}`, color: 'blue' }));
  }
  const gone = await client.customers.create({ firstName: 'Soft', lastName: 'Deleted' });
  await client.customers.create({ firstName: 'Still', lastName: 'Here' });
  await client.customers.delete(gone.id);
});
afterAll(async () => {
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

/** Changes a mirror behind the sync's back: one row gone, one value changed, one row added. */
type Tamper = (deleted: V1Car, changed: V1Car, extraId: string) => Promise<void>;

/** better-sqlite3 as @vsf/sync resolves it (the CLI does not depend on it directly). */
const requireFromSync = createRequire(import.meta.resolve('@vsf/sync'));

function sqlTamper(run: (sql: string, bindings: unknown[]) => Promise<unknown>, table: string): Tamper {
  return async (deleted, changed, extraId) => {
    await run(`delete from ${table} where id = ?`, [deleted.id]);
    await run(`update ${table} set color = ? where id = ?`, ['tampered', changed.id]);
    await run(`insert into ${table} (id, year, make, model, synced_at, synced_run) values (?, ?, ?, ?, ?, ?)`, [
      extraId,
      1999,
      'Extra',
      'Row',
      new Date().toISOString(),
      'by-hand',
    ]);
  };
}

interface MirrorCase {
  name: string;
  to: () => Promise<string>;
  tamper: (to: string) => Tamper;
  /** Whether `vsf sync --full --prune` repairs hand edits (a JSONL log's index still lists them as synced). */
  repairable: boolean;
  cleanup?: () => Promise<void>;
}

const schema = `vsf_verify_${Math.random().toString(36).slice(2, 8)}`;
const mirrors: MirrorCase[] = [
  {
    name: 'SQLite',
    to: async () => join(home, 'verify.db'),
    tamper: (to) => {
      const Database = requireFromSync('better-sqlite3') as new (
        file: string,
      ) => {
        prepare(sql: string): { run(...bindings: unknown[]): unknown };
        close(): void;
      };
      return sqlTamper(async (sql, bindings) => {
        const db = new Database(to);
        try {
          db.prepare(sql).run(...bindings);
        } finally {
          db.close();
        }
      }, 'cars');
    },
    repairable: true,
  },
  {
    name: 'JSONL',
    to: async () => `jsonl:${join(home, 'verify-jsonl')}`,
    tamper: (to) => async (deleted, changed, extraId) => {
      const log = join(to.slice('jsonl:'.length), 'cars.jsonl');
      const lines = [
        { op: 'delete', id: deleted.id, syncedAt: new Date().toISOString() },
        { op: 'upsert', id: changed.id, record: { ...changed, color: 'tampered' }, syncedAt: new Date().toISOString() },
        { op: 'upsert', id: extraId, record: { ...changed, id: extraId }, syncedAt: new Date().toISOString() },
      ];
      appendFileSync(log, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    },
    repairable: false,
  },
];
if (process.env.TEST_DATABASE_URL) {
  mirrors.push({
    name: 'PostgreSQL',
    to: async () => {
      // A schema of its own: the test database also holds the reference server's tables.
      await server.db.raw(`create schema ${schema}`);
      return `${process.env.TEST_DATABASE_URL}?options=-c%20search_path%3D${schema}`;
    },
    tamper: () => sqlTamper((sql, bindings) => server.db.raw(sql, bindings as never[]), `${schema}.cars`),
    repairable: true,
    cleanup: async () => {
      await server.db.raw(`drop schema if exists ${schema} cascade`);
    },
  });
}

describe.each(mirrors)('vsf sync verify on a $name mirror', (mirror) => {
  it('exits 0 in step, then finds a deleted row, a changed value and an extra row (exit 1)', async () => {
    const to = await mirror.to();
    try {
      const synced = await vsf(['sync', '--to', to, '--resources', 'cars,customers', '--json', '--quiet']);
      expect(synced.code, synced.stderr).toBe(0);

      // A car changed on the server after the sync is pending (the next run fetches it), not drift.
      const [deleted, changed, , later] = cars as [V1Car, V1Car, V1Car, V1Car];
      await client.cars.update(later.id, { mileage: 1234 });
      const inStep = await vsf(['sync', 'verify', '--to', to, '--resources', 'cars,customers']);
      expect(inStep.code, inStep.stdout + inStep.stderr).toBe(0);
      expect(inStep.stdout).toMatch(/cars\tok\t6\t6\t0\t0\t0\t1\t/);
      // Both customers, the soft-deleted one as the sync stores it, with its deletedAt.
      expect(inStep.stdout).toMatch(/customers\tok\t2\t2\t0\t0\t0\t0\t/);
      expect(inStep.stderr).toBe('The mirror matches the server.\n');
      // The next sync starts in a later second than the cars were written (Date headers have whole seconds).
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const catchUp = await vsf(['sync', '--to', to, '--resources', 'cars', '--quiet']);
      expect(catchUp.code).toBe(0);

      const extraId = randomUUID();
      await mirror.tamper(to)(deleted, changed, extraId);

      const json = await vsf(['sync', 'verify', '--to', to, '--resources', 'cars,customers', '--json', '--quiet']);
      expect(json.code).toBe(1);
      const result = JSON.parse(json.stdout);
      expect(result).toMatchObject({
        ok: false,
        drift: true,
        retries: { total: 0 },
        error: { code: 'failed', exitCode: 1, message: expect.stringContaining('differs from the server in cars:') },
      });
      expect(result.resources[0]).toMatchObject({
        resource: 'cars',
        status: 'drift',
        serverCount: 6,
        mirrorCount: 6,
        missing: { count: 1, ids: [deleted.id] },
        extra: { count: 1, ids: [extraId] },
        different: { count: 1, rows: [{ id: changed.id, fields: ['color'] }] },
        pending: 0,
      });
      expect(result.resources[0].pagesDiffering).toBe(1);
      expect(result.resources[1]).toMatchObject({ resource: 'customers', status: 'ok' });

      const text = await vsf(['sync', 'verify', '--to', to, '--resources', 'cars']);
      expect(text.code).toBe(1);
      expect(text.stdout).toContain(`cars: missing ${deleted.id}\n`);
      expect(text.stdout).toContain(`cars: extra ${extraId}\n`);
      expect(text.stdout).toContain(`cars: different ${changed.id} (color)\n`);
      expect(text.stderr).toContain('Drift found.');

      if (mirror.repairable) {
        const repair = await vsf(['sync', '--full', '--prune', '--to', to, '--resources', 'cars', '--quiet']);
        expect(repair.code, repair.stderr).toBe(0);
        expect((await vsf(['sync', 'verify', '--to', to, '--resources', 'cars', '--quiet'])).code).toBe(0);
      }
    } finally {
      await mirror.cleanup?.();
    }
  }, 60_000);
});

describe('vsf sync verify on a mirror never synced', () => {
  it('reports every server row missing and exits 1, creating nothing', async () => {
    const res = await vsf(['sync', 'verify', '--to', join(home, 'never.db'), '--resources', 'cars', '--json']);
    expect(existsSync(join(home, 'never.db'))).toBe(false);
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout).resources[0]).toMatchObject({
      status: 'drift',
      watermark: null,
      mirrorCount: 0,
      missing: { count: 6 },
    });
  });
});
