// Issue 32, item 5: progress people can read. Through the built `vsf` and a real server: per-photo lines in
// KiB with the time left that count every photo, a summary that adds up when the network goes part-way, a
// bar with sizes on a terminal, and a flush over a slow link that sends one photo at a time.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CutProxy, startCutProxy } from './support/cut-proxy.js';
import { builtVsf } from './support/run-vsf.js';
import { type SlowProxy, startSlowProxy } from './support/slow-proxy.js';
import { pngOfSize, type StaffWorld, startStaffWorld } from './support/staff-world.js';

let world: StaffWorld;
let slow: SlowProxy;
let cut: CutProxy;
let dataHome: string;

beforeAll(async () => {
  world = await startStaffWorld('prog');
  slow = await startSlowProxy(world.server.baseUrl);
  cut = await startCutProxy(world.server.baseUrl);
});
afterAll(async () => {
  await slow?.close();
  await cut?.close();
  await world?.close();
});
beforeEach(async () => {
  dataHome = mkdtempSync(join(world.home, 'data-'));
  slow.set({ kind: 'pass' });
  await cut.restore();
});

const photoSet = (name: string, count: number, size: number) =>
  world.photoDir(name, Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}.png`, pngOfSize(size + i)])));

describe('photo progress', () => {
  it('one line per photo with the count of all photos, KiB sent of the total, then a summary that adds up', async () => {
    const g = await world.garageCar();
    const dir = photoSet('prog-lines', 3, 20_480);
    const drop = await world.vsf(['dropoff', g.vin, '--spot', g.spot.name, dir], slow.baseUrl, dataHome);
    expect(drop.code, drop.stderr).toBe(0);
    const lines = drop.stderr.split('\n').filter((l) => l.startsWith('uploaded '));
    expect(lines).toHaveLength(3);
    expect(lines.map((l) => /^uploaded (\d)\/3 /.exec(l)?.[1])).toEqual(['1', '2', '3']);
    for (const line of lines) expect(line).toMatch(/\(\d+\.\d KiB of 60\.0 KiB(, \d+ s left)?\): .*p\d\.png$/);
    expect(lines[2]).toMatch(/\(60\.0 KiB of 60\.0 KiB\)/);
    expect(drop.stderr).toContain('3/3 photo(s) uploaded, 0 failed, 0 skipped');
  });

  it('when the network goes part-way, uploaded and queued add up to the photos given', async () => {
    const g = await world.garageCar();
    const dir = photoSet('prog-cut', 10, 1_000);
    // The event and two photos get through, then the link is cut.
    cut.cutAfterPosts(3, 'before-server');
    const drop = await world.vsf(['dropoff', g.vin, '--spot', g.spot.name, dir], cut.baseUrl, dataHome);
    expect(drop.code, drop.stderr).toBe(0);
    const summary = /(\d+)\/10 photo\(s\) uploaded, 0 failed, 0 skipped, (\d+) queued/.exec(drop.stderr);
    expect(summary, drop.stderr).not.toBeNull();
    const [, uploaded, queued] = summary as unknown as [string, string, string];
    expect(Number(uploaded) + Number(queued)).toBe(10);
    expect(drop.stderr).toMatch(new RegExp(`Queued \\S+: ${queued} photo\\(s\\) into session`));
  });

  it('a bar with sizes in KiB on a terminal', async () => {
    const g = await world.garageCar();
    const dir = photoSet('prog-tty', 2, 10_240);
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(builtVsf())} dropoff ${g.vin} --spot ${g.spot.name} ${dir}`;
    const out = await new Promise<string>((resolve) => {
      execFile(
        'script',
        ['-qfec', command, '/dev/null'],
        { env: { ...world.env(slow.baseUrl, dataHome), TERM: 'xterm' }, timeout: 60_000 },
        (_error, stdout) => resolve(stdout),
      );
    });
    expect(out).toMatch(/photos \[.*\] 2\/2 \| 0 failed \| 20\.0 KiB of 20\.0 KiB/);
  });

  it('a flush over a slow link sends one photo at a time, a line for each, and each arrives once', async () => {
    const g = await world.garageCar();
    const dir = photoSet('prog-flush', 6, 16_384);
    // Queued at once: the link passes nothing and the CLI is told to wait half a second.
    slow.set({ kind: 'black-hole' });
    const queued = await world.vsf(['dropoff', g.vin, '--spot', g.spot.name, dir, '--json'], slow.baseUrl, dataHome, {
      VSF_RESPONSE_TIMEOUT: '0.5',
    });
    expect(JSON.parse(queued.stdout)).toMatchObject({ queued: true });
    slow.set({ kind: 'slow', bytesPerSecond: 40_000 });
    const flush = await world.vsf(['queue', 'flush', '--json'], slow.baseUrl, dataHome);
    expect(flush.code, flush.stdout + flush.stderr).toBe(0);
    expect(slow.mostPhotosAtOnce).toBe(1);
    // Not silent: a line per photo as it arrives.
    const lines = flush.stderr.split('\n').filter((l) => l.startsWith('uploaded '));
    expect(lines.map((l) => /^uploaded (\d)\/6 /.exec(l)?.[1])).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(lines[5]).toMatch(/\(96\.0 KiB of 96\.0 KiB\): .*p\d\.png$/);
    const photos = await world.api<{ filename: string }[]>('GET', `/cars/${g.car.id}/photos?limit=100`);
    expect(photos.map((p) => p.filename).sort()).toEqual(['p0.png', 'p1.png', 'p2.png', 'p3.png', 'p4.png', 'p5.png']);
  });
});
