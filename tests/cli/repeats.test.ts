// Issue 32, item 3: repeats are safe. Through the built `vsf` and a real server: photos the session holds
// already are not sent again, a drop-off into the place the car holds or a pick-up of a car not parked is
// refused unless --force, and every photo file is checked before anything is sent.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PNG, pngOfSize, type StaffWorld, startStaffWorld } from './support/staff-world.js';

let world: StaffWorld;
let dataHome: string;
const vsf = (args: string[], extra: Record<string, string> = {}) =>
  world.vsf(args, world.server.baseUrl, dataHome, extra);

beforeAll(async () => {
  world = await startStaffWorld('rep');
});
afterAll(async () => {
  await world?.close();
});
beforeEach(() => {
  dataHome = mkdtempSync(join(world.home, 'data-'));
});

const events = (carId: string) =>
  world.api<{ activityType: string }[]>('GET', `/cars/${carId}/events?limit=100`).then((all) => ({
    dropOffs: all.filter((e) => e.activityType === 'drop_off').length,
    pickUps: all.filter((e) => e.activityType === 'pick_up').length,
  }));
const photos = (carId: string) =>
  world
    .api<{ filename: string; sizeBytes: number }[]>('GET', `/cars/${carId}/photos?limit=100`)
    .then((all) => all.map((p) => `${p.filename}:${p.sizeBytes}`).sort());

describe('photos upload skips what the session holds already', () => {
  it('a second run sends nothing and says so; changed bytes under the same name and size are sent; --force sends again', async () => {
    const g = await world.garageCar();
    const dir = world.photoDir('rep-photos', {
      'front.png': PNG,
      'rear.png': pngOfSize(200),
      'side.png': pngOfSize(300),
    });
    const drop = await vsf(['dropoff', g.vin, '--spot', g.spot.name, '-q']);
    expect(drop.code, drop.stderr).toBe(0);
    const session = drop.stdout.trim();

    const first = await vsf(['photos', 'upload', g.vin, '--session', session, dir, '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ uploaded: [{}, {}, {}], skipped: [] });

    // side.png changes, same size: the digest tells it apart.
    writeFileSync(join(dir, 'side.png'), Buffer.concat([PNG, Buffer.alloc(300 - PNG.length, 1)]));
    const again = await vsf(['photos', 'upload', g.vin, '--session', session, dir]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('1/3 photo(s) uploaded, 0 failed, 2 skipped');
    expect(again.stdout).toMatch(
      new RegExp(`skipped ${join(dir, 'front.png')}: already in the session \\(photo [0-9a-f-]{36}\\)`),
    );
    expect(await photos(g.car.id)).toEqual([`front.png:${PNG.length}`, 'rear.png:200', 'side.png:300', 'side.png:300']);

    const forced = await vsf([
      'photos',
      'upload',
      g.vin,
      '--session',
      session,
      join(dir, 'front.png'),
      '--force',
      '--json',
    ]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(forced.stdout)).toMatchObject({ uploaded: [{}], skipped: [] });
    expect((await photos(g.car.id)).filter((p) => p.startsWith('front.png'))).toHaveLength(2);
  });
});

describe('a drop-off or pick-up that repeats the car’s state', () => {
  it('a second drop-off into the same spot is refused (exit 2, nothing logged) unless --force', async () => {
    const g = await world.garageCar();
    expect((await vsf(['dropoff', g.vin, '--spot', g.spot.name])).code).toBe(0);
    const repeat = await vsf(['dropoff', g.vin, '--spot', g.spot.name]);
    expect(repeat.code).toBe(2);
    expect(repeat.stderr).toMatch(
      /is already parked at .*; nothing was logged\. Log the drop-off again anyway with --force/,
    );
    expect(repeat.stdout).toBe('');
    expect(await events(g.car.id)).toEqual({ dropOffs: 1, pickUps: 0 });
    const forced = await vsf(['dropoff', g.vin, '--spot', g.spot.name, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(await events(g.car.id)).toEqual({ dropOffs: 2, pickUps: 0 });
  });

  it('a pick-up of a car that is not parked is refused (exit 2) unless --force', async () => {
    const g = await world.garageCar();
    const refused = await vsf(['pickup', g.vin]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/is not parked, so there is nothing to pick up; nothing was logged/);
    expect(await events(g.car.id)).toEqual({ dropOffs: 0, pickUps: 0 });
    expect((await vsf(['dropoff', g.vin, '--zone', g.zone.name])).code).toBe(0);
    expect((await vsf(['pickup', g.vin])).code).toBe(0);
    const second = await vsf(['pickup', g.vin]);
    expect(second.code).toBe(2);
    const forced = await vsf(['pickup', g.vin, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(await events(g.car.id)).toEqual({ dropOffs: 1, pickUps: 2 });
  });
});

describe('photo files are all checked before anything is sent', () => {
  it('a typo, a text file, an oversized photo and an empty directory: all listed, exit 2, no drop-off logged', async () => {
    const g = await world.garageCar();
    const dir = world.photoDir('rep-bad', {
      'front.png': PNG,
      'fake.jpg': 'this is not a photo',
      'huge.png': pngOfSize(3 * 1024 * 1024 + 10),
      '.DS_Store': 'hidden files in a directory are left out',
    });
    const empty = world.photoDir('rep-empty', {});
    const drop = await vsf(['dropoff', g.vin, '--spot', g.spot.name, dir, join(dir, 'frnt.png'), empty]);
    expect(drop.code).toBe(2);
    expect(drop.stdout).toBe('');
    expect(drop.stderr).toContain('4 photos cannot be sent, so nothing was sent:');
    expect(drop.stderr).toContain(`${join(dir, 'fake.jpg')}: not an image`);
    expect(drop.stderr).toContain(`${join(dir, 'huge.png')}: 3145738 bytes, over the 3 MiB limit`);
    expect(drop.stderr).toContain(`${join(dir, 'frnt.png')}: not found`);
    expect(drop.stderr).toContain(`${empty}: an empty directory: no photos in it`);
    expect(drop.stderr).not.toContain('.DS_Store');
    expect(await events(g.car.id)).toEqual({ dropOffs: 0, pickUps: 0 });
  });

  it.skipIf(process.getuid?.() === 0)('a file that cannot be read stops the command too', async () => {
    const g = await world.garageCar();
    const dir = world.photoDir('rep-locked', { 'locked.png': PNG });
    chmodSync(join(dir, 'locked.png'), 0o000);
    const drop = await vsf(['dropoff', g.vin, '--spot', g.spot.name, join(dir, 'locked.png')]);
    expect(drop.code).toBe(2);
    expect(drop.stderr).toContain(`${join(dir, 'locked.png')}: cannot be read (permission denied)`);
    expect(await events(g.car.id)).toEqual({ dropOffs: 0, pickUps: 0 });
  });
});
