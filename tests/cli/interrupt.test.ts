// Issue 32, item 1: Ctrl-C never loses work. The built `vsf` uploads ten photos over a slow link to a real
// server; SIGINT part-way queues what the server has not confirmed, prints the session and what was queued,
// and exits 130; the queue then delivers each photo exactly once. A second Ctrl-C ends it at once and the
// queue stays consistent.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { spawnVsf } from './support/run-vsf.js';
import { type SlowProxy, startSlowProxy } from './support/slow-proxy.js';
import { pngOfSize, type StaffWorld, startStaffWorld } from './support/staff-world.js';

let world: StaffWorld;
let proxy: SlowProxy;
let dataHome: string;
const vsf = (args: string[]) => world.vsf(args, proxy.baseUrl, dataHome);

beforeAll(async () => {
  world = await startStaffWorld('int');
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

/** Ten photos of distinct sizes, so each can be told apart on the server. */
function tenPhotos(name: string) {
  return world.photoDir(
    name,
    Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`photo-${i}.png`, pngOfSize(40_000 + i)])),
  );
}

function run(args: string[]) {
  const child = spawnVsf(args, { env: world.env(proxy.baseUrl, dataHome) });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, ended, output: () => ({ stdout, stderr }) };
}

/** Waits for a condition the test does not time: it polls until it holds (the test's own timeout bounds it). */
async function until(condition: () => boolean) {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 50));
}

const serverPhotos = (carId: string) =>
  world
    .api<{ filename: string }[]>('GET', `/cars/${carId}/photos?limit=100`)
    .then((all) => all.map((p) => p.filename).sort());

describe('Ctrl-C during a drop-off with photos', () => {
  it('queues the photos not yet confirmed, prints the session and the queue entry, exits 130; a flush sends each once', async () => {
    const g = await world.garageCar();
    const dir = tenPhotos('int-ten');
    // ~20 KiB/s a request: each 40 KB photo takes about two seconds to go.
    proxy.set({ kind: 'slow', bytesPerSecond: 20_000 });
    const { child, ended, output } = run(['dropoff', g.vin, '--spot', g.spot.name, dir]);
    await until(() => proxy.photosAnswered.length >= 2);
    child.kill('SIGINT');
    const { code } = await ended;
    const { stdout, stderr } = output();
    expect(code, stderr).toBe(130);
    const session = stdout.trim();
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    const queued = /Queued (\S+): (\d+) photo\(s\) into session (\S+), because you stopped it with Ctrl-C/.exec(stderr);
    expect(queued, stderr).not.toBeNull();
    const [, queueId, waiting, queuedSession] = queued as unknown as [string, string, string, string];
    expect(queuedSession).toBe(session);
    expect(stderr).toContain(`vsf queue drop ${queueId}`);

    // What the server holds and what is queued add up to the ten photos.
    const list = JSON.parse((await vsf(['queue', 'list', '--json'])).stdout);
    expect(list.broken).toEqual([]);
    expect(list.entries).toMatchObject([{ id: queueId, operation: 'dropoff', eventDelivered: true }]);
    const entry = list.entries[0];
    expect(entry.photos - entry.photosDelivered).toBe(Number(waiting));
    expect(Number(waiting)).toBeGreaterThan(0);

    proxy.set({ kind: 'pass' });
    const flush = await vsf(['queue', 'flush', '--json']);
    expect(flush.code, flush.stdout + flush.stderr).toBe(0);
    expect(JSON.parse(flush.stdout)).toMatchObject({ delivered: [{ id: queueId, sessionId: session }], remaining: 0 });
    expect(await serverPhotos(g.car.id)).toEqual(Array.from({ length: 10 }, (_, i) => `photo-${i}.png`));
    const events = await world.api<{ activityType: string }[]>('GET', `/cars/${g.car.id}/events`);
    expect(events.filter((e) => e.activityType === 'drop_off')).toHaveLength(1);
  });

  it('a second Ctrl-C ends it at once; the queue holds a whole entry or none, and nothing arrives twice', async () => {
    const g = await world.garageCar();
    const dir = tenPhotos('int-twice');
    proxy.set({ kind: 'slow', bytesPerSecond: 20_000 });
    const { child, ended } = run(['dropoff', g.vin, '--spot', g.spot.name, dir]);
    await until(() => proxy.photosAnswered.length >= 1);
    const twice = (c: ChildProcess) => {
      c.kill('SIGINT');
      c.kill('SIGINT');
    };
    twice(child);
    const { code, signal } = await ended;
    // Either the first Ctrl-C finished queueing (130) or the second ended the process by the signal.
    expect(code === 130 || signal === 'SIGINT').toBe(true);
    const list = JSON.parse((await vsf(['queue', 'list', '--json'])).stdout);
    expect(list.broken).toEqual([]);
    expect(list.entries.length).toBeLessThanOrEqual(1);

    proxy.set({ kind: 'pass' });
    const flush = await vsf(['queue', 'flush']);
    expect(flush.code, flush.stdout).toBe(0);
    const names = await serverPhotos(g.car.id);
    expect(new Set(names).size).toBe(names.length);
    if (list.entries.length === 1) expect(names).toHaveLength(10);
  });
});
