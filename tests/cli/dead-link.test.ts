// Issue 32, item 2: a link that accepts connections and passes nothing is noticed in seconds. The built
// `vsf` talks to a real server through a proxy that black-holes every request; the drop-off is queued
// quickly, `VSF_LOG=info` shows each retry, and a terminal is told it is waiting for the network.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { builtVsf } from './support/run-vsf.js';
import { type SlowProxy, startSlowProxy } from './support/slow-proxy.js';
import { PNG, type StaffWorld, startStaffWorld } from './support/staff-world.js';

let world: StaffWorld;
let proxy: SlowProxy;
let dataHome: string;
const vsf = (args: string[], extra: Record<string, string> = {}) => world.vsf(args, proxy.baseUrl, dataHome, extra);

beforeAll(async () => {
  world = await startStaffWorld('dead');
  proxy = await startSlowProxy(world.server.baseUrl);
});
afterAll(async () => {
  await proxy?.close();
  await world?.close();
});
beforeEach(() => {
  dataHome = mkdtempSync(join(world.home, 'data-'));
  proxy.set({ kind: 'pass' });
});

describe('a link that accepts and passes nothing', () => {
  it('queues a drop-off in seconds (not minutes), logs each retry at info, and delivers it once the link is back', async () => {
    const g = await world.garageCar();
    const dir = world.photoDir('dead-1', { 'front.png': PNG });
    proxy.set({ kind: 'black-hole' });
    const started = Date.now();
    const drop = await vsf(['dropoff', g.vin, '--spot', g.spot.name, dir, '--json'], { VSF_LOG: 'info' });
    const seconds = (Date.now() - started) / 1000;
    expect(drop.code, drop.stderr).toBe(0);
    // Two attempts of 4 s and a pause between them; generous for a loaded machine.
    expect(seconds).toBeLessThan(20);
    const summary = JSON.parse(drop.stdout);
    expect(summary).toMatchObject({ queued: true, reason: expect.stringMatching(/no response within 4 s/) });
    expect(drop.stderr).toMatch(/\[vsf info\] retrying GET \S+ in \d+ ms after: .*waiting for the response/);

    proxy.set({ kind: 'pass' });
    const flush = await vsf(['queue', 'flush', '--json']);
    expect(flush.code, flush.stdout + flush.stderr).toBe(0);
    expect(JSON.parse(flush.stdout)).toMatchObject({ delivered: [{ id: summary.queueId }], remaining: 0 });
    const photos = await world.api<unknown[]>('GET', `/cars/${g.car.id}/photos`);
    expect(photos).toHaveLength(1);
  });

  it('VSF_RESPONSE_TIMEOUT sets the wait; a bad value is refused with what it should be', async () => {
    const g = await world.garageCar();
    proxy.set({ kind: 'black-hole' });
    const pick = await vsf(['pickup', g.vin, '--json'], { VSF_RESPONSE_TIMEOUT: '1' });
    expect(pick.code, pick.stderr).toBe(0);
    expect(JSON.parse(pick.stdout).reason).toMatch(/no response within 1 s/);
    const bad = await vsf(['cars', 'list'], { VSF_RESPONSE_TIMEOUT: 'soon' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/VSF_RESPONSE_TIMEOUT must be a number of seconds/);
  });

  it('says "waiting for network…" on a terminal while it retries', async () => {
    const g = await world.garageCar();
    proxy.set({ kind: 'black-hole' });
    // `script` gives the built vsf a real terminal, as staff have.
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(builtVsf())} pickup ${g.vin}`;
    const out = await new Promise<string>((resolve) => {
      execFile(
        'script',
        ['-qec', command, '/dev/null'],
        { env: { ...world.env(proxy.baseUrl, dataHome), VSF_RESPONSE_TIMEOUT: '1' }, timeout: 60_000 },
        (_error, stdout) => resolve(stdout),
      );
    });
    expect(out).toMatch(/waiting for network… \(no response within 1 s; trying again in [\d.]+ s\)/);
    expect(out).toMatch(/Queued \S+: the pickup of/);
  });
});
