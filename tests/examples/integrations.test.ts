import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ALL_SCOPES } from '@vsf/contract';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../..');
const tsx = join(root, 'node_modules/.bin/tsx');
const example = (name: string) => join(root, 'examples/integrations', name);

let server: TestServer;
let env: NodeJS.ProcessEnv;
let dir: string;

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${env.VSF_API_KEY}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await res.json()) as { data: { id: string } & Record<string, unknown> };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

beforeAll(async () => {
  server = await startTestServer();
  const { key } = await server.createTeamWithKey(ALL_SCOPES);
  env = { ...process.env, VSF_API_KEY: key, VSF_BASE_URL: server.baseUrl };
  dir = await mkdtemp(join(tmpdir(), 'vsf-examples-'));
});
afterAll(() => server?.close());

describe('examples/integrations', () => {
  it('inventory-feed publishes the cars for sale from the mirror, and follows changes incrementally', async () => {
    await api('POST', '/cars', { year: 1967, make: 'Ford', model: 'Mustang', isForSale: true });
    await api('POST', '/cars', { year: 1972, make: 'BMW', model: '2002', isForSale: true });
    const kept = await api('POST', '/cars', { year: 1990, make: 'Mazda', model: 'Miata' });
    const mirror = join(dir, 'mirror.db');
    const feedPath = join(dir, 'inventory.json');

    const first = await run(tsx, [example('inventory-feed.ts'), mirror, feedPath], { env, cwd: root });
    expect(first.stderr).toContain('full sync: 3 car(s) updated; 2 for sale');
    let feed = JSON.parse(await readFile(feedPath, 'utf8'));
    expect(feed.cars.map((c: { make: string }) => c.make)).toEqual(['BMW', 'Ford']);

    await api('PATCH', `/cars/${kept.id}`, { isForSale: true });
    const second = await run(tsx, [example('inventory-feed.ts'), mirror, feedPath], { env, cwd: root });
    expect(second.stderr).toMatch(/incremental sync: \d+ car\(s\) updated; 3 for sale/);
    feed = JSON.parse(await readFile(feedPath, 'utf8'));
    expect(feed.count).toBe(3);
  });

  it('nightly-export writes a full JSON Lines copy into a folder per night', async () => {
    const customer = await api('POST', '/customers', { firstName: 'Ada', lastName: 'Lovelace' });
    const exports = join(dir, 'exports');
    const { stdout, stderr } = await run(tsx, [example('nightly-export.ts'), exports], { env, cwd: root });
    expect(stdout).toMatch(/^customers\tcompleted\t1 record\(s\)$/m);
    const [night] = await readdir(exports);
    expect(night).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(stderr).toContain(`exported to ${join(exports, night as string)}`);
    const lines = (await readFile(join(exports, night as string, 'customers.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).id)).toEqual([customer.id]);
  });

  it('dropoff-kiosk parks the scanned car in the spot and attaches the kiosk photos', async () => {
    const car = await api('POST', '/cars', { year: 2001, make: 'Honda', model: 'S2000', vin: 'JHMAP21' });
    const zone = await api('POST', '/parking-zones', { name: 'Kiosk zone' });
    const spot = await api('POST', '/parking-spots', { name: 'K-1', parkingZoneId: zone.id });
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    );
    const photos = [join(dir, 'front.png'), join(dir, 'rear.png')];
    for (const p of photos) await writeFile(p, png);

    const { stdout } = await run(tsx, [example('dropoff-kiosk.ts'), 'JHMAP21', 'K-1', ...photos], { env, cwd: root });
    const out = JSON.parse(stdout);
    expect(out).toMatchObject({
      carId: car.id,
      spot: 'K-1',
      photos: [expect.stringMatching(/^\/api\/media\//), expect.any(String)],
    });
    expect((await api('GET', `/cars/${car.id}`)).parkingSpotId).toBe(spot.id);
    const gallery = await fetch(`${server.baseUrl}/cars/${car.id}/photos`, {
      headers: { authorization: `Bearer ${env.VSF_API_KEY}` },
    }).then((r) => r.json() as Promise<{ data: { filename: string }[] }>);
    expect(gallery.data.map((p) => p.filename).sort()).toEqual(['front.png', 'rear.png']);

    const unknown = await run(tsx, [example('dropoff-kiosk.ts'), 'NOPE', 'K-1'], { env, cwd: root }).catch((e) => e);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No car has VIN or stock number NOPE');
  });
});
