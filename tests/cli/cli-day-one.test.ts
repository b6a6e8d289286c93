// Day-one problems staff hit with `vsf` (issue 17), each run as staff would: the built bin, its exit code,
// stdout and stderr.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ALL_SCOPES } from '@vsf/contract';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRefusingProxy } from './support/refusing-proxy.js';
import { builtVsf, runVsf } from './support/run-vsf.js';

const execFileAsync = promisify(execFile);
const home = mkdtempSync(join(tmpdir(), 'vsf-day-one-'));
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let server: TestServer;
let key: string;

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    XDG_CONFIG_HOME: home,
    VSF_BASE_URL: server.baseUrl,
    VSF_API_KEY: key,
    NO_COLOR: '1',
    VSF_LOG: '',
    ...extra,
  };
}
const vsf = (args: string[], extra: Record<string, string> = {}) => runVsf(args, { env: env(extra), cwd: home });

async function api<T = { id: string }>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return ((await res.json()) as { data: T }).data;
}
const photoCount = async (carId: string) =>
  (
    (await (
      await fetch(`${server.baseUrl}/cars/${carId}/photos`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as { total: number }
  ).total;

function photoDir(name: string, files: Record<string, Buffer | string>): string {
  const dir = join(home, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, bytes] of Object.entries(files)) writeFileSync(join(dir, file), bytes);
  return dir;
}

beforeAll(async () => {
  server = await startTestServer();
  key = (await server.createTeamWithKey(ALL_SCOPES)).key;
  const zone = await api('POST', '/parking-zones', { name: 'Hall A' });
  for (const name of ['A-1', 'A-2', 'A-3', 'A-4'])
    await api('POST', '/parking-spots', { name, parkingZoneId: zone.id });
});
afterAll(async () => {
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('--set converts by the field’s type in the contract', () => {
  it('keeps digits in string fields as text and converts integers, booleans and null by declared type', async () => {
    const created = await vsf([
      'cars',
      'create',
      '--year',
      '1970',
      '--make',
      'Plymouth',
      '--model',
      'Superbird',
      '--set',
      'stockNumber=4711',
      '--set',
      'licensePlate=1234',
      '--set',
      'vin=00123',
      '--set',
      'mileage=880',
      '--set',
      'isForSale=true',
      '--json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const car = JSON.parse(created.stdout);
    expect(car).toMatchObject({
      stockNumber: '4711',
      licensePlate: '1234',
      vin: '00123',
      mileage: 880,
      isForSale: true,
    });
    const cleared = await vsf(['cars', 'update', '4711', '--set', 'mileage=null', '--set', 'color=0', '--json']);
    expect(cleared.code, cleared.stderr).toBe(0);
    expect(JSON.parse(cleared.stdout)).toMatchObject({ id: car.id, mileage: null, color: '0' });
  });

  it('refuses an unknown field or a value that does not fit with a usage error (exit 2) naming field and type', async () => {
    const bad = await vsf(['cars', 'update', '4711', '--set', 'mileage=lots']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--set mileage: expected integer or null, got "lots"');
    const unknown = await vsf(['cars', 'update', '4711', '--set', 'colour=red']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('cars update has no field "colour"');
    expect(unknown.stderr).toContain('color (string or null)');
    const notNullable = await vsf(['cars', 'update', '4711', '--set', 'isForSale=null']);
    expect(notNullable.code).toBe(2);
    expect(notNullable.stderr).toContain('--set isForSale: expected boolean, got "null"');
  });
});

describe('one car lookup (id, VIN, stock number) for every command that takes a car', () => {
  it('finds a car by VIN or stock number in cars get, and lists the candidates when the reference is ambiguous', async () => {
    const cobra = await api('POST', '/cars', { year: 1965, make: 'Shelby', model: 'Cobra', vin: 'CSX2000' });
    await api('POST', '/cars', { year: 1966, make: 'Ford', model: 'GT40', stockNumber: 'P1046' });
    const byVin = await vsf(['cars', 'get', 'CSX2000', '--json']);
    expect(byVin.code, byVin.stderr).toBe(0);
    expect(JSON.parse(byVin.stdout).id).toBe(cobra.id);
    expect(JSON.parse((await vsf(['cars', 'get', 'P1046', '--json'])).stdout).model).toBe('GT40');
    expect(JSON.parse((await vsf(['cars', 'get', cobra.id, '--json'])).stdout).vin).toBe('CSX2000');

    const twin = await api('POST', '/cars', { year: 1966, make: 'Ford', model: 'Replica', stockNumber: 'CSX2000' });
    const ambiguous = await vsf(['cars', 'get', 'CSX2000']);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('Several cars match "CSX2000"');
    expect(ambiguous.stderr).toContain(cobra.id);
    expect(ambiguous.stderr).toContain(twin.id);
    const missing = await vsf(['photos', 'list', 'NO-SUCH-CAR']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No car with id, VIN, stock number or plate "NO-SUCH-CAR"');
  });
});

describe('lists say when they are not the whole list', () => {
  it('cars list shows how many exist and how to see more; --page, --limit and --all work', async () => {
    for (let i = 0; i < 3; i++) await api('POST', '/cars', { year: 2000 + i, make: 'Page', model: `M${i}` });
    const all = JSON.parse((await vsf(['cars', 'list', '--all', '--json'])).stdout) as { id: string }[];
    const total = all.length;
    expect(total).toBeGreaterThan(4);
    const first = await vsf(['cars', 'list', '--limit', '2', '--json']);
    expect(JSON.parse(first.stdout)).toHaveLength(2);
    expect(first.stderr).toContain(`showing 1-2 of ${total} — use --page 2 or --all`);
    const second = await vsf(['cars', 'list', '--limit', '2', '--page', '2', '--json']);
    expect(JSON.parse(second.stdout).map((c: { id: string }) => c.id)).toEqual(all.slice(2, 4).map((c) => c.id));
    expect(second.stderr).toContain(`showing 3-4 of ${total} — use --page 3 or --all`);
    const whole = await vsf(['cars', 'list', '--limit', '200']);
    expect(whole.stderr).toBe('');
    const quiet = await vsf(['cars', 'list', '--limit', '2', '--quiet']);
    expect(quiet.stderr).toBe('');
    const spots = await vsf(['parking', 'spots', 'list', '--limit', '3']);
    expect(spots.stderr).toMatch(/showing 1-3 of \d+ — use --page 2 or --all/);
    const types = await vsf(['event-types', 'list', '--limit', '1']);
    expect(types.stderr).toMatch(/showing 1-1 of \d+ — use --page 2 or --all/);
    expect((await vsf(['cars', 'list', '--updated-after', 'yesterday'])).code).toBe(2);
  });
});

describe('parking and photo commands staff need', () => {
  it('creates a zone and a spot by zone name, lists spots with zone names, and shows a car’s gallery', async () => {
    const zone = await vsf(['parking', 'zones', 'create', '--name', 'Hall B', '--set', 'capacity=40', '--json']);
    expect(zone.code, zone.stderr).toBe(0);
    expect(JSON.parse(zone.stdout)).toMatchObject({ name: 'Hall B', capacity: 40 });
    const location = await api('POST', '/locations', { name: 'North Warehouse' });
    const north = await vsf([
      'parking',
      'zones',
      'create',
      '--name',
      'Hall N',
      '--location',
      'North Warehouse',
      '--json',
    ]);
    expect(JSON.parse(north.stdout).locationId).toBe(location.id);
    const spot = await vsf(['parking', 'spots', 'create', '--name', 'B-7', '--zone', 'Hall B', '--json']);
    expect(spot.code, spot.stderr).toBe(0);
    expect(JSON.parse(spot.stdout)).toMatchObject({ name: 'B-7', zoneName: 'Hall B' });
    const listed = await vsf(['parking', 'spots', 'list', '--zone', 'Hall B']);
    expect(listed.stdout.split('\n')).toEqual([
      'ID\tNAME\tZONE\tCAR',
      `${JSON.parse(spot.stdout).id}\tB-7\tHall B\t`,
      '',
    ]);
    expect((await vsf(['parking', 'spots', 'create', '--name', 'X-1', '--zone', 'No Such Hall'])).stderr).toContain(
      'No parking zone named "No Such Hall"',
    );

    const car = await api('POST', '/cars', { year: 1957, make: 'BMW', model: '507', stockNumber: 'G-507' });
    const dir = photoDir('gallery', { 'front.png': PNG });
    const drop = await vsf(['dropoff', 'G-507', '--spot', 'B-7', dir, '--json']);
    expect(drop.code, drop.stderr).toBe(0);
    const gallery = await vsf(['photos', 'list', 'G-507']);
    expect(gallery.code).toBe(0);
    const [header, row] = gallery.stdout.trim().split('\n');
    expect(header).toBe('FILENAME\tSIZE\tSESSION\tURL\tCREATED');
    const [filename, size, session, url] = row?.split('\t') ?? [];
    expect([filename, Number(size), session]).toEqual(['front.png', PNG.length, JSON.parse(drop.stdout).sessionId]);
    const media = await fetch(url as string, { headers: { authorization: `Bearer ${key}` } });
    expect(media.status).toBe(200);
    expect(Buffer.from(await media.arrayBuffer())).toEqual(PNG);
    const bySession = await vsf(['photos', 'list', 'G-507', '--session', JSON.parse(drop.stdout).sessionId, '--json']);
    expect(JSON.parse(bySession.stdout).map((p: { filename: string }) => p.filename)).toEqual(['front.png']);
    const otherSession = await vsf(['photos', 'list', 'G-507', '--session', crypto.randomUUID(), '--json']);
    expect(JSON.parse(otherSession.stdout)).toEqual([]);
    expect(await photoCount(car.id)).toBe(1);
  });
});

describe('photos: sniffed, failures counted and explained', () => {
  it('refuses a text file named fake.jpg before any request (exit 2): no drop-off, no photo', async () => {
    const car = await api('POST', '/cars', { year: 1961, make: 'Jaguar', model: 'E-Type', stockNumber: 'E-1' });
    const dir = photoDir('fake', { 'fake.jpg': 'this is not a photo', 'real.png': PNG });
    const drop = await vsf(['dropoff', 'E-1', '--spot', 'A-1', dir, '--json']);
    expect(drop.code).toBe(2);
    expect(drop.stderr).toMatch(/fake\.jpg: not an image \(its bytes are not a JPEG/);
    expect(await photoCount(car.id)).toBe(0);
  });

  it('counts a server refusal as a failure, prints the server’s field details, lists it in --json and exits 1', async () => {
    const proxy = await startRefusingProxy(server.baseUrl, ['refused.png']);
    try {
      const car = await api('POST', '/cars', { year: 1963, make: 'Aston Martin', model: 'DB5', stockNumber: 'DB5' });
      const dir = photoDir('mixed', { 'a.png': PNG, 'b.png': PNG, 'c.png': PNG, 'refused.png': PNG });
      const text = await vsf(['dropoff', 'DB5', '--spot', 'A-2', dir], { VSF_BASE_URL: proxy.baseUrl });
      expect(text.code).toBe(1);
      expect(text.stderr).toMatch(/uploaded 3\/4, 1 failed/);
      expect(text.stderr).not.toMatch(/uploaded 4\/4/);
      expect(text.stderr).toContain('3/4 photo(s) uploaded, 1 failed, 0 skipped');
      expect(text.stderr).toContain(`failed ${join(dir, 'refused.png')}: Validation failed (request proxy-refusal)`);
      expect(text.stderr).toContain('contentType: Declared image/png but the bytes are image/gif');

      const session = text.stdout.trim();
      // --force: the session holds a, b and c already, which would be skipped.
      const json = await vsf(['photos', 'upload', 'DB5', '--session', session, dir, '--force', '--json'], {
        VSF_BASE_URL: proxy.baseUrl,
      });
      expect(json.code).toBe(1);
      const summary = JSON.parse(json.stdout);
      expect(summary.uploaded).toHaveLength(3);
      expect(summary.failed).toEqual([
        {
          path: join(dir, 'refused.png'),
          error: expect.stringContaining('contentType: Declared image/png but the bytes are image/gif'),
          code: 'validation_error',
          status: 400,
          details: [{ path: 'contentType', message: 'Declared image/png but the bytes are image/gif' }],
        },
      ]);
      expect(await photoCount(car.id)).toBe(6);
    } finally {
      await proxy.close();
    }
  });

  it('prints the field details of any API error, not only "Validation failed"', async () => {
    const res = await vsf(['photos', 'upload', 'DB5', '--session', 'not-a-session', photoDir('one', { 'x.png': PNG })]);
    expect(res.code).toBe(1);
    // The session is looked up first (for photos it holds already): the refusal names the field.
    expect(res.stderr).toMatch(/Validation failed.*\n\s+sessionId: /);
  });
});

describe('the drop-off’s session id is on stdout', () => {
  it('alone on stdout even with --quiet, as a field in --json, so --session $(…) works in a script', async () => {
    const car = await api('POST', '/cars', { year: 1955, make: 'Mercedes', model: '300SL', stockNumber: 'SL-1' });
    const quiet = await vsf(['dropoff', 'SL-1', '--spot', 'A-3', '--quiet']);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(quiet.stderr).toBe('');
    const pick = await vsf(['pickup', 'SL-1', '--json']);
    expect(JSON.parse(pick.stdout).sessionId).toMatch(/^[0-9a-f-]{36}$/);

    const dir = photoDir('script', { 'door.png': PNG });
    const vsfCmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(builtVsf())}`;
    const { stdout } = await execFileAsync(
      'sh',
      ['-c', `${vsfCmd} photos upload SL-1 --session "$(${vsfCmd} dropoff SL-1 --spot A-4 -q)" ${dir}/door.png`],
      { env: env() },
    );
    expect(stdout).toContain('1/1 photo(s) uploaded, 0 failed, 0 skipped');
    expect(await photoCount(car.id)).toBe(1);
  });
});

describe('a server that cannot be reached', () => {
  it('says so with the cause and a hint, and exits 3', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const base = `http://127.0.0.1:${port}/api/v1`;
    const res = await vsf(['cars', 'list'], { VSF_BASE_URL: base });
    expect(res.code).toBe(3);
    expect(res.stderr).toBe(
      `vsf: cannot reach ${base}: connection refused — is the server running? check --base-url / VSF_BASE_URL\n`,
    );
    expect(res.stderr).not.toContain('fetch failed');

    // With VSF_LOG=debug the same run shows each attempt and each retry decision.
    const traced = await vsf(['cars', 'list'], { VSF_BASE_URL: base, VSF_LOG: 'debug' });
    expect(traced.code).toBe(3);
    expect(traced.stderr).toMatch(/\[vsf debug\] GET \S+\/cars\?limit=50&page=1 -> no response after \d+ ms/);
    expect(traced.stderr).toMatch(
      /\[vsf info\] retrying GET \S+ in \d+ ms after: .*\{"attempt":1,.*"reason":"[^"]+","delayMs":\d+\}/,
    );
    expect(traced.stderr).toMatch(/\[vsf debug\] not retrying GET \S+: no retries left \{"attempt":3/);
  });
});

describe('VSF_LOG=debug', () => {
  it('logs each request’s method, URL, status, duration and request id on stderr, never the key', async () => {
    const res = await vsf(['cars', 'list', '--limit', '1', '--json'], { VSF_LOG: 'debug' });
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toHaveLength(1);
    expect(res.stderr).toContain(`[vsf debug] GET ${server.baseUrl}/cars?limit=1&page=1 {"attempt":1}`);
    expect(res.stderr).toMatch(
      /\[vsf debug\] GET \S+\/cars\?limit=1&page=1 -> 200 in \d+ ms \{"attempt":1,"status":200,"durationMs":\d+,"requestId":"[^"]+"\}/,
    );
    expect(res.stderr).not.toContain(key.split('.')[1]);
  });
});
