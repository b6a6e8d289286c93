import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_SCOPES } from '@vsf/contract';
import { VsfClient } from '@vsf/sdk';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import { openSink, sdkPageSource, selectResources, sync, verify } from '@vsf/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChaosProxy } from '../support/chaos-proxy.js';

// The run-wide retry budget against a real server behind the chaos proxy: a scripted blip is ridden
// out and counted, a server that keeps failing stops the run at once, and one that is not there at
// all stops it on the first request. Backoffs are shortened through the options, never slept out.
let server: TestServer;
let key: string;
const dir = mkdtempSync(join(tmpdir(), 'vsf-retry-'));

beforeAll(async () => {
  server = await startTestServer();
  ({ key } = await server.createTeamWithKey(ALL_SCOPES));
  const client = new VsfClient({ apiKey: key, baseUrl: server.baseUrl, logLevel: 'off' });
  for (let i = 0; i < 5; i++) await client.cars.create({ year: 1960 + i, make: 'Blip', model: `B${i}` });
  await client.customers.create({ firstName: 'Ada', lastName: 'Blip' });
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A port with nothing listening on it: taken from the OS, then released. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('sync retry budget', () => {
  it('rides out a reset, a 503 and a 429 with Retry-After in a row, and counts the 3 retries', async () => {
    const proxy = await startChaosProxy({
      target: server.origin,
      seed: 1,
      faultRate: 0,
      script: ['reset-before-response', 'status-503', 'status-429'],
      retryAfterSeconds: 1,
    });
    // The SDK's default of 2 retries would give up on the third failure; the sync's budget decides.
    const client = new VsfClient({ apiKey: key, baseUrl: `${proxy.origin}/api/v1`, logLevel: 'off' });
    const sink = openSink(`sqlite:${join(dir, 'blip.db')}`);
    try {
      const result = await sync({
        source: sdkPageSource(client),
        sink,
        resources: ['cars'],
        retry: { maxDelayMs: 20 },
      });
      expect(result.error).toBeUndefined();
      expect(result.ok).toBe(true);
      expect(result.retries).toMatchObject({
        total: 3,
        reasons: { 'connection reset': 1, 'HTTP 503': 1, 'HTTP 429': 1 },
      });
      expect(result.resources[0]).toMatchObject({ status: 'completed', retries: 3, upserted: 5 });
      expect(proxy.stats.faults).toBe(3);
      const checked = await verify({ source: sdkPageSource(client), sink, resources: ['cars'] });
      expect(checked).toMatchObject({ ok: true, drift: false });
    } finally {
      await sink.close();
      await proxy.close();
    }
  });

  it('stops the whole run when one request keeps failing, instead of trying every other resource', async () => {
    const proxy = await startChaosProxy({
      target: server.origin,
      seed: 2,
      faultRate: 0,
      script: Array(10).fill('status-503'),
      retryAfterSeconds: 0,
    });
    const client = new VsfClient({ apiKey: key, baseUrl: `${proxy.origin}/api/v1`, logLevel: 'off' });
    const sink = openSink(`sqlite:${join(dir, 'down.db')}`);
    try {
      const result = await sync({
        source: sdkPageSource(client),
        sink,
        resources: ['cars', 'customers', 'locations'],
        concurrency: 1,
        retry: { maxRetries: 2, maxDelayMs: 10 },
      });
      expect(result.ok).toBe(false);
      expect(result.error).toMatch(/cars page 1 failed 3 times in a row \(last: HTTP 503\)/);
      expect(result.resources.map((r) => r.status)).toEqual(['failed', 'skipped', 'skipped']);
      expect(result.retries).toMatchObject({ total: 2, reasons: { 'HTTP 503': 2 } });
      expect(proxy.stats.requests).toBe(3);
    } finally {
      await sink.close();
      await proxy.close();
    }
  });

  it('fails on the first request, with the address and a hint, when nothing listens there', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}/api/v1`;
    const client = new VsfClient({ apiKey: key, baseUrl, logLevel: 'off' });
    const sink = openSink(`sqlite:${join(dir, 'refused.db')}`);
    try {
      const result = await sync({ source: sdkPageSource(client), sink });
      expect(result.ok).toBe(false);
      expect(result.error).toBe(`cannot reach ${baseUrl}: connection refused — is the server running?`);
      expect(result.retries.total).toBe(0);
      // At most the two resources already started (concurrency 2) failed; no other was tried.
      const statuses = result.resources.map((r) => r.status);
      expect(statuses.filter((s) => s === 'failed').length).toBeLessThanOrEqual(2);
      expect(statuses.filter((s) => s === 'skipped').length).toBe(
        selectResources(undefined).length - statuses.filter((s) => s === 'failed').length,
      );
    } finally {
      await sink.close();
    }
  });
});
