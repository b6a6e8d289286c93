import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_SCOPES } from '@vsf/contract';
import { VsfClient } from '@vsf/sdk';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChaosProxy } from '../support/chaos-proxy.js';
import { runVsf } from './support/run-vsf.js';

// `vsf sync` as cron runs it: through a short outage, against a server that is down, with bad flags,
// and into mirrors named as people name SQLite files.
const home = mkdtempSync(join(tmpdir(), 'vsf-cron-'));
let server: TestServer;
let key: string;

function vsf(args: string[], baseUrl = server.baseUrl) {
  return runVsf(args, {
    env: { ...process.env, XDG_CONFIG_HOME: home, VSF_BASE_URL: baseUrl, VSF_API_KEY: key, NO_COLOR: '1' },
    cwd: home,
  });
}

beforeAll(async () => {
  server = await startTestServer();
  ({ key } = await server.createTeamWithKey(ALL_SCOPES));
  const client = new VsfClient({ apiKey: key, baseUrl: server.baseUrl, logLevel: 'off' });
  for (let i = 0; i < 3; i++) await client.cars.create({ year: 1970 + i, make: 'Cron', model: `C${i}` });
});
afterAll(async () => {
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('vsf sync through a blip', () => {
  /** A proxy whose first three requests fail: a reset, a 503, then a 429 with Retry-After. */
  const outage = (seed: number) =>
    startChaosProxy({
      target: server.origin,
      seed,
      faultRate: 0,
      script: ['reset-before-response', 'status-503', 'status-429'],
      retryAfterSeconds: 1,
    });

  it('rides out a reset, a 503 and a 429 in a row and reports the 3 retries, as text and as JSON', async () => {
    const to = `sqlite:${join(home, 'blip.db')}`;
    const first = await outage(3);
    try {
      const text = await vsf(
        ['sync', '--resources', 'cars', '--to', to, '--max-retry-delay', '0.02'],
        `${first.origin}/api/v1`,
      );
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toMatch(/cars\tcompleted\tlists\tfull\t1\t3\t0\t0\t3\t3\t/);
      expect(text.stdout).toContain('3 retries (1 connection reset, 1 HTTP 503, 1 HTTP 429)');
      expect(first.stats.faults).toBe(3);
    } finally {
      await first.close();
    }
    const second = await outage(4);
    try {
      const json = await vsf(
        ['sync', '--resources', 'cars', '--to', to, '--max-retry-delay', '0.02', '--json', '--quiet'],
        `${second.origin}/api/v1`,
      );
      expect(json.code, json.stderr).toBe(0);
      const summary = JSON.parse(json.stdout);
      expect(summary).toMatchObject({
        ok: true,
        retries: { total: 3, reasons: { 'connection reset': 1, 'HTTP 503': 1, 'HTTP 429': 1 } },
      });
      expect(summary.resources[0]).toMatchObject({ resource: 'cars', status: 'completed', retries: 3 });
    } finally {
      await second.close();
    }
  });

  it('gives up after --max-retries in a row, stopping the run rather than moving on', async () => {
    const proxy = await startChaosProxy({
      target: server.origin,
      seed: 4,
      faultRate: 0,
      script: Array(20).fill('status-502'),
    });
    try {
      const res = await vsf(
        [
          'sync',
          '--resources',
          'cars,customers,locations',
          '--to',
          join(home, 'gave-up.db'),
          '--max-retries',
          '1',
          '--max-retry-delay',
          '0.01',
          '--json',
        ],
        `${proxy.origin}/api/v1`,
      );
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(
        /^vsf: (cars|customers) page 1 failed 2 times in a row \(last: HTTP 502\) at http:\/\/127\.0\.0\.1:\d+\/api\/v1; stopped the run — the next run resumes where this one stopped\n$/,
      );
      const summary = JSON.parse(res.stdout);
      expect(summary.error).toMatchObject({ code: 'failed', exitCode: 1 });
      expect(summary.resources.find((r: { resource: string }) => r.resource === 'locations').status).toBe('skipped');
      // Two resources started at once, at most two tries each; the third was never asked for.
      expect(proxy.stats.requests).toBeLessThanOrEqual(4);
    } finally {
      await proxy.close();
    }
  });
});

/** A port with nothing listening on it: taken from the OS, then released. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('vsf sync against a server that is down', () => {
  it('fails on the first request with the address and a hint (exit 3), trying no other resource', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}/api/v1`;
    const message = `cannot reach ${baseUrl}: connection refused — is the server running?`;
    const text = await vsf(['sync', '--to', join(home, 'down.db')], baseUrl);
    expect(text.code).toBe(3);
    expect(text.stderr).toBe(`vsf: ${message}\n`);
    expect(text.stdout).toBe('');
    const json = await vsf(['sync', '--to', join(home, 'down.db'), '--json', '--quiet'], baseUrl);
    expect(json.code).toBe(3);
    const summary = JSON.parse(json.stdout);
    expect(summary).toMatchObject({
      ok: false,
      error: { code: 'unreachable', message, exitCode: 3 },
      retries: { total: 0 },
    });
    const started = summary.resources.filter((r: { status: string }) => r.status !== 'skipped');
    expect(started.length).toBeLessThanOrEqual(2);
    const verify = await vsf(['sync', 'verify', '--to', join(home, 'down.db'), '--json'], baseUrl);
    expect(verify.code).toBe(3);
    expect(verify.stderr).toBe(`vsf: ${message}\n`);
    const verified = JSON.parse(verify.stdout);
    expect(verified).toMatchObject({ ok: false, drift: false, stopReason: 'unreachable' });
    expect(verified.resources.filter((r: { status: string }) => r.status === 'skipped').length).toBe(
      verified.resources.length - 1,
    );
  });
});

describe('vsf sync with a refused key', () => {
  it('stops at the first 401 and exits 4, as every vsf command does for key problems', async () => {
    const res = await runVsf(['sync', '--to', join(home, 'refused.db'), '--json', '--quiet'], {
      env: {
        ...process.env,
        XDG_CONFIG_HOME: home,
        VSF_BASE_URL: server.baseUrl,
        VSF_API_KEY: 'vsf_abcdefghijkl.wrong',
      },
      cwd: home,
    });
    expect(res.code).toBe(4);
    const summary = JSON.parse(res.stdout);
    expect(summary).toMatchObject({ ok: false, stopReason: 'key-refused', retries: { total: 0 } });
    expect(res.stderr).toMatch(/^vsf: (Invalid API key|API key)/);
    expect(summary.resources.filter((r: { status: string }) => r.status === 'skipped').length).toBeGreaterThan(10);
  });
});

describe('vsf sync flags', () => {
  it('exits 2 naming the valid values for an unknown resource, a bad time or a bad number', async () => {
    const bogus = await vsf(['sync', '--resources', 'cars,bogus']);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toMatch(/Unknown: bogus\. Valid values: .*\bcars\b.*\bcustomers\b/);
    const yesterday = await vsf(['cars', 'list', '--updated-after', 'yesterday']);
    expect(yesterday.code).toBe(2);
    expect(yesterday.stderr).toContain('Expected an ISO 8601 time with a timezone offset, e.g. 2026-01-31T00:00:00Z');
    const retries = await vsf(['sync', '--max-retries', 'many']);
    expect(retries.code).toBe(2);
    expect(retries.stderr).toContain('Expected a whole number ≥ 0.');
    const verifyBogus = await vsf(['sync', 'verify', '--resources', 'bogus']);
    expect(verifyBogus.code).toBe(2);
    // A good time still goes through.
    expect((await vsf(['cars', 'list', '--updated-after', '2020-01-01T00:00:00Z', '--json'])).code).toBe(0);
  });

  it.each(['mirror.db', 'mirror.sqlite', 'mirror.sqlite3'])('takes --to %s as an SQLite mirror', async (file) => {
    const res = await vsf(['sync', '--to', file, '--resources', 'cars', '--json', '--quiet']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).resources[0]).toMatchObject({ status: 'completed', upserted: 3 });
    expect(existsSync(join(home, file))).toBe(true);
    expect((await vsf(['sync', 'verify', '--to', file, '--resources', 'cars', '--quiet'])).code).toBe(0);
  });

  it('refuses a --to it cannot read as a mirror, with the forms it takes (exit 2)', async () => {
    const res = await vsf(['sync', '--to', 'mirror.txt']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      'Unknown mirror "mirror.txt": use sqlite:<file> (or a file name ending .db, .sqlite or .sqlite3), postgres://… or jsonl:<dir>',
    );
  });
});
