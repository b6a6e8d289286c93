import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_SCOPES } from '@vsf/contract';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CutMode, type CutProxy, startCutProxy } from './support/cut-proxy.js';
import { runVsf } from './support/run-vsf.js';

// Offline-first drop-offs: the built `vsf` talks to a real server through a proxy the test cuts at exact
// requests; after the network is back, the server must hold each write exactly once.
const home = mkdtempSync(join(tmpdir(), 'vsf-queue-'));
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let server: TestServer;
let proxy: CutProxy;
let key: string;
let teamId: string;
/** Each test gets its own data directory, so its queue starts empty. */
let dataHome: string;
let seq = 0;

function vsf(args: string[], env: Record<string, string> = {}) {
  return runVsf(args, {
    env: {
      ...process.env,
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_DATA_HOME: dataHome,
      VSF_BASE_URL: proxy.baseUrl,
      VSF_API_KEY: key,
      NO_COLOR: '1',
      ...env,
    },
    cwd: home,
  });
}

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as { data: T };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

async function world() {
  const n = ++seq;
  const zone = await api<{ id: string; name: string }>('POST', '/parking-zones', { name: `Hall ${n}` });
  const spot = await api<{ id: string; name: string }>('POST', '/parking-spots', {
    name: `S-${n}`,
    parkingZoneId: zone.id,
  });
  const vin = `VIN${n}X${Date.now().toString(36)}`.toUpperCase();
  const car = await api<{ id: string }>('POST', '/cars', { year: 1965, make: 'Shelby', model: 'Cobra', vin });
  const dir = join(home, `photos-${n}`);
  mkdirSync(dir, { recursive: true });
  // Distinct bytes, so each photo on the server can be told apart by size.
  writeFileSync(join(dir, 'front.png'), PNG);
  writeFileSync(join(dir, 'rear.png'), Buffer.concat([PNG, Buffer.alloc(7)]));
  return { zone, spot, car, vin, dir };
}

async function serverState(carId: string) {
  const events = await api<{ activityType: string; sessionId: string }[]>('GET', `/cars/${carId}/events?limit=100`);
  const photos = await api<{ filename: string; sizeBytes: number; sessionId: string }[]>(
    'GET',
    `/cars/${carId}/photos?limit=100`,
  );
  return {
    dropOffs: events.filter((e) => e.activityType === 'drop_off'),
    pickUps: events.filter((e) => e.activityType === 'pick_up'),
    photos: photos.map((p) => `${p.filename}:${p.sizeBytes}`).sort(),
    photoSessions: [...new Set(photos.map((p) => p.sessionId))],
  };
}

const queueDir = () => join(dataHome, 'vsf', 'queue');
const listQueue = async () => {
  const res = await vsf(['queue', 'list', '--json']);
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout) as {
    entries: { id: string; operation: string; needsAttention: boolean; attempts: number; lastError: string | null }[];
    broken: { id: string; reason: string; fix: string }[];
  };
};

beforeAll(async () => {
  server = await startTestServer();
  const team = await server.createTeamWithKey(ALL_SCOPES);
  key = team.key;
  teamId = team.team.id;
  proxy = await startCutProxy(server.baseUrl);
});
afterAll(async () => {
  await proxy?.close();
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});
beforeEach(async () => {
  dataHome = mkdtempSync(join(home, 'data-'));
  await proxy.restore();
});

describe('a drop-off with photos when the network fails at each step', () => {
  const cuts: {
    name: string;
    cut: (p: CutProxy) => Promise<void> | void;
    before: { events: number; photos: number };
  }[] = [
    {
      name: 'API unreachable from the start (connection refused)',
      cut: (p) => p.down(),
      before: { events: 0, photos: 0 },
    },
    ...([0, 1, 2] as const).flatMap((posts) =>
      (['before-server', 'after-server'] as CutMode[]).map((mode) => ({
        name: `cut at POST ${posts + 1} (${['the event', 'a first photo', 'the last photo'][posts]}), ${mode === 'before-server' ? 'before the server saw it' : 'after the server committed it, response lost'}`,
        cut: (p: CutProxy) => p.cutAfterPosts(posts, mode),
        before: {
          events: posts > 0 || mode === 'after-server' ? 1 : 0,
          photos: Math.max(0, posts - 1) + (posts > 0 && mode === 'after-server' ? 1 : 0),
        },
      })),
    ),
  ];

  it.each(cuts)(
    '$name: queued, then one flush leaves exactly one event and each photo once',
    async ({ cut, before }) => {
      const w = await world();
      await cut(proxy);
      const drop = await vsf(['dropoff', w.vin, '--spot', w.spot.name, '--notes', 'scratch on door', w.dir, '--json']);
      expect(drop.code, drop.stderr).toBe(0);
      const summary = JSON.parse(drop.stdout);
      expect(summary).toMatchObject({ queued: true, queueId: expect.any(String) });
      expect(summary.reason).toMatch(/unreachable/);

      const mid = await serverState(w.car.id);
      expect(mid.dropOffs).toHaveLength(before.events);
      expect(mid.photos).toHaveLength(before.photos);

      // The queue is private and holds its own copies: editing the originals changes nothing delivered.
      expect(statSync(queueDir()).mode & 0o777).toBe(0o700);
      const entryDir = join(queueDir(), summary.queueId);
      for (const file of readdirSync(entryDir)) expect(statSync(join(entryDir, file)).mode & 0o777).toBe(0o600);
      writeFileSync(join(w.dir, 'front.png'), Buffer.concat([PNG, Buffer.alloc(100)]));
      unlinkSync(join(w.dir, 'rear.png'));

      await proxy.restore();
      const flush = await vsf(['queue', 'flush', '--json']);
      expect(flush.code, flush.stdout + flush.stderr).toBe(0);
      expect(JSON.parse(flush.stdout)).toMatchObject({ delivered: [{ id: summary.queueId }], remaining: 0 });

      const end = await serverState(w.car.id);
      expect(end.dropOffs).toHaveLength(1);
      expect(end.photos).toEqual([`front.png:${PNG.length}`, `rear.png:${PNG.length + 7}`]);
      expect(end.photoSessions).toEqual([end.dropOffs[0]?.sessionId]);
      expect((await listQueue()).entries).toEqual([]);
      // A second flush has nothing left to send.
      expect((await vsf(['queue', 'flush'])).stdout).toContain('The queue is empty');
    },
  );

  it('a flush cut between photos checkpoints what was acknowledged and resumes with the next photo', async () => {
    const w = await world();
    await proxy.down();
    const queued = JSON.parse((await vsf(['dropoff', w.vin, '--spot', w.spot.name, w.dir, '--json'])).stdout);
    await proxy.restore();
    // The flush gets the event and one photo through (the second committed, its answer lost), then the network goes.
    proxy.cutAfterPosts(2, 'after-server');
    const cut = await vsf(['queue', 'flush', '--json']);
    expect(cut.code).toBe(1);
    expect(JSON.parse(cut.stdout).waiting).toMatchObject([
      { id: queued.queueId, eventDelivered: true, photosDelivered: 1, lastError: expect.stringMatching(/failed/) },
    ]);
    await proxy.restore();
    expect((await vsf(['queue', 'flush'])).code).toBe(0);
    const end = await serverState(w.car.id);
    expect(end.dropOffs).toHaveLength(1);
    expect(end.photos).toEqual([`front.png:${PNG.length}`, `rear.png:${PNG.length + 7}`]);
  });

  it.each([
    { name: 'the event', posts: 0 },
    { name: 'a photo', posts: 1 },
  ])(
    '$name committed but unacknowledged, flushed after the server forgot its idempotency key: matched by content, stored once',
    async ({ posts }) => {
      const w = await world();
      proxy.cutAfterPosts(posts, 'after-server');
      const queued = JSON.parse((await vsf(['dropoff', w.vin, '--spot', w.spot.name, w.dir, '--json'])).stdout);
      expect(queued.queued).toBe(true);
      // Two days later: the server's 24 h idempotency window is over.
      const file = join(queueDir(), queued.queueId, 'entry.json');
      const entry = JSON.parse(readFileSync(file, 'utf8'));
      entry.createdAt = new Date(Date.now() - 48 * 3600_000).toISOString();
      writeFileSync(file, JSON.stringify(entry));
      await server.db('idempotency_keys').where({ team_id: teamId }).delete();
      await proxy.restore();
      const flush = await vsf(['queue', 'flush']);
      expect(flush.code, flush.stdout).toBe(0);
      const end = await serverState(w.car.id);
      expect(end.dropOffs).toHaveLength(1);
      expect(end.photos).toEqual([`front.png:${PNG.length}`, `rear.png:${PNG.length + 7}`]);
    },
  );

  it('a name that does not resolve (DNS) queues too, and the entry is only sent with its own key and server', async () => {
    const w = await world();
    const offline = await vsf(['pickup', w.vin, '--json'], { VSF_BASE_URL: 'http://vsf-garage.invalid/api/v1' });
    expect(offline.code, offline.stderr).toBe(0);
    const queued = JSON.parse(offline.stdout);
    expect(queued).toMatchObject({ queued: true, reason: expect.stringMatching(/unreachable/) });
    // Reachable server, other team's key: never delivered there.
    const other = await server.createTeamWithKey(ALL_SCOPES);
    const flush = await vsf(['queue', 'flush', '--json'], { VSF_API_KEY: other.key });
    expect(flush.code).toBe(1);
    expect(JSON.parse(flush.stdout)).toMatchObject({
      delivered: [],
      waiting: [
        { id: queued.queueId, reason: expect.stringMatching(/queued for key .* at http:\/\/vsf-garage\.invalid/) },
      ],
    });
    expect((await vsf(['queue', 'drop', queued.queueId, '--json'])).code).toBe(0);
    expect((await serverState(w.car.id)).pickUps).toHaveLength(0);
  });

  it('a cut after the last photo was acknowledged leaves nothing to queue', async () => {
    const w = await world();
    proxy.cutAfterPosts(3, 'before-server');
    const drop = await vsf(['dropoff', w.vin, '--spot', w.spot.name, w.dir, '--json']);
    expect(drop.code, drop.stderr).toBe(0);
    expect(JSON.parse(drop.stdout)).toMatchObject({ queued: false, uploaded: [{}, {}] });
    expect((await listQueue()).entries).toEqual([]);
    const end = await serverState(w.car.id);
    expect(end.dropOffs).toHaveLength(1);
    expect(end.photos).toHaveLength(2);
  });
});

describe('the queue in daily use', () => {
  it('queues a pick-up offline; the next command that reaches the server delivers it first', async () => {
    const w = await world();
    expect((await vsf(['dropoff', w.vin, '--spot', w.spot.name])).code).toBe(0);
    await proxy.down();
    const pick = await vsf(['pickup', w.vin, '--notes', 'owner collected']);
    expect(pick.code, pick.stderr).toBe(0);
    expect(pick.stdout).toBe(''); // no session yet: nothing for a script to take
    expect(pick.stderr).toMatch(/^Queued \S+: the pickup of/m);
    const listed = await vsf(['queue', 'list']);
    expect(listed.stdout).toMatch(/pickup\t/);
    expect((await serverState(w.car.id)).pickUps).toHaveLength(0);

    await proxy.restore();
    const other = await vsf(['parking', 'spots', 'list', '--free']);
    expect(other.code).toBe(0);
    expect(other.stderr).toMatch(/vsf: delivered 1 queued operation/);
    expect(other.stdout).toContain(w.spot.name); // delivered before the listing, so the spot is already free
    expect((await serverState(w.car.id)).pickUps).toHaveLength(1);
    expect((await listQueue()).entries).toEqual([]);
  });

  it('--no-flush leaves the queue alone; new operations wait behind what is queued', async () => {
    const w = await world();
    await proxy.down();
    expect((await vsf(['dropoff', w.vin, '--zone', w.zone.name])).code).toBe(0);
    await proxy.restore();
    const untouched = await vsf(['cars', 'get', w.car.id, '--no-flush']);
    expect(untouched.code).toBe(0);
    expect(untouched.stderr).toBe('');
    expect((await serverState(w.car.id)).dropOffs).toHaveLength(0);
    // Reachable again, but the drop-off is still queued: the pick-up must not overtake it.
    const pick = await vsf(['pickup', w.vin, '--no-flush', '--json']);
    expect(JSON.parse(pick.stdout)).toMatchObject({ queued: true, reason: expect.stringMatching(/waits behind/) });
    expect((await listQueue()).entries.map((e) => e.operation)).toEqual(['dropoff', 'pickup']);
    const flush = await vsf(['queue', 'flush']);
    expect(flush.code, flush.stdout).toBe(0);
    expect(flush.stdout.match(/^delivered /gm)).toHaveLength(2);
    const end = await serverState(w.car.id);
    expect(end.dropOffs).toHaveLength(1);
    expect(end.pickUps).toHaveLength(1);
  });

  it('a spot taken meanwhile is reported and kept; the same car waits, other cars go on; retry and drop', async () => {
    const a = await world();
    const b = await world();
    const c = await world();
    await proxy.down();
    const dropA = JSON.parse((await vsf(['dropoff', a.vin, '--spot', a.spot.name, a.dir, '--json'])).stdout);
    const pickA = JSON.parse((await vsf(['pickup', a.vin, '--json'])).stdout);
    const dropC = JSON.parse((await vsf(['dropoff', c.vin, '--spot', c.spot.name, '--json'])).stdout);
    expect([dropA.queued, pickA.queued, dropC.queued]).toEqual([true, true, true]);
    // Meanwhile, at the desk, another car takes A's spot.
    await api('POST', `/cars/${b.car.id}/events`, { activityType: 'drop_off', parkingSpotId: a.spot.id });

    await proxy.restore();
    const flush = await vsf(['queue', 'flush', '--json']);
    expect(flush.code).toBe(1);
    const report = JSON.parse(flush.stdout);
    expect(report.delivered.map((d: { id: string }) => d.id)).toEqual([dropC.queueId]);
    expect(report.attention).toMatchObject([{ id: dropA.queueId, attention: { status: 409 } }]);
    expect(report.attention[0].lastError).toMatch(/occupied/);
    expect(report.waiting).toMatchObject([{ id: pickA.queueId, reason: expect.stringMatching(/waits behind/) }]);
    const text = await vsf(['queue', 'flush']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`needs attention ${dropA.queueId}`);
    expect(text.stdout).toContain(`vsf queue drop ${dropA.queueId}`);
    // Never retried by itself: the second flush did not try it again.
    expect((await listQueue()).entries.find((e) => e.id === dropA.queueId)).toMatchObject({
      needsAttention: true,
      attempts: report.attention[0].attempts,
    });
    expect((await serverState(a.car.id)).dropOffs).toHaveLength(0);

    // The user gives up the pick-up, frees the spot and retries the drop-off.
    const dropped = await vsf(['queue', 'drop', pickA.queueId]);
    expect(dropped.code).toBe(0);
    expect(dropped.stdout).toContain(`Dropped ${pickA.queueId}`);
    await api('POST', `/cars/${b.car.id}/events`, { activityType: 'pick_up' });
    // Its queued time now overlaps B's stay in the spot, which the server refuses: re-time it.
    expect((await vsf(['queue', 'retry', dropA.queueId])).code).toBe(0);
    const overlapping = await vsf(['queue', 'flush']);
    expect(overlapping.code).toBe(1);
    expect(overlapping.stdout).toMatch(/stays in a spot cannot overlap/);
    // The hint says the flag the fix needs.
    expect(overlapping.stdout).toContain(`vsf queue retry ${dropA.queueId} --now`);
    expect((await vsf(['queue', 'retry', dropA.queueId, '--now'])).code).toBe(0);
    const again = await vsf(['queue', 'flush']);
    expect(again.code, again.stdout).toBe(0);
    const end = await serverState(a.car.id);
    expect(end.dropOffs).toHaveLength(1);
    expect(end.photos).toHaveLength(2);
    expect(end.pickUps).toHaveLength(0);
    expect((await vsf(['queue', 'drop', 'no-such-entry'])).code).toBe(1);
  });

  it('one flush at a time: a live lock holds flush and drop back; a dead one is taken over', async () => {
    const w = await world();
    await proxy.down();
    const queued = JSON.parse((await vsf(['dropoff', w.vin, '--zone', w.zone.name, '--json'])).stdout);
    await proxy.restore();
    const lock = join(queueDir(), '.flush.lock');
    writeFileSync(lock, String(process.pid)); // this test process: alive
    const busy = await vsf(['queue', 'flush', '--json']);
    expect(busy.code).toBe(1);
    expect(JSON.parse(busy.stdout).waiting).toMatchObject([{ reason: 'another vsf is flushing the queue' }]);
    const drop = await vsf(['queue', 'drop', queued.queueId]);
    expect(drop.code).toBe(1);
    expect(drop.stderr).toMatch(/Another vsf is flushing/);
    // A crashed flush left its lock and an interrupted entry behind.
    writeFileSync(lock, '999999');
    const staleStaging = join(queueDir(), '.staging-crashed');
    const freshStaging = join(queueDir(), '.staging-in-progress');
    mkdirSync(staleStaging);
    mkdirSync(freshStaging);
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(staleStaging, twoHoursAgo, twoHoursAgo);
    const flush = await vsf(['queue', 'flush']);
    expect(flush.code, flush.stdout).toBe(0);
    expect([existsSync(lock), existsSync(staleStaging), existsSync(freshStaging)]).toEqual([false, false, true]);
    expect((await serverState(w.car.id)).dropOffs).toHaveLength(1);
  });

  it('a corrupt or half-written entry is refused by name and blocks nothing else', async () => {
    const worlds = [await world(), await world(), await world(), await world()];
    await proxy.down();
    const ids: string[] = [];
    for (const w of worlds) {
      const res = await vsf(['dropoff', w.vin, '--zone', w.zone.name, join(w.dir, 'front.png'), '--json']);
      ids.push(JSON.parse(res.stdout).queueId);
    }
    const [truncated, versioned, missingCopy, healthy] = ids as [string, string, string, string];
    const entryFile = (id: string) => join(queueDir(), id, 'entry.json');
    const text = readFileSync(entryFile(truncated), 'utf8');
    writeFileSync(entryFile(truncated), text.slice(0, text.length / 2));
    writeFileSync(entryFile(versioned), text.replace(truncated, versioned).replace('"version": 1', '"version": 99'));
    unlinkSync(join(queueDir(), missingCopy, 'photo-001.png'));

    const listed = await listQueue();
    expect(listed.entries.map((e) => e.id)).toEqual([healthy]);
    expect(listed.broken.map((b) => [b.id, b.reason])).toEqual([
      [truncated, expect.stringMatching(/not valid JSON/)],
      [versioned, expect.stringMatching(/format version 99/)],
      [missingCopy, expect.stringMatching(/copy of .*front\.png .*is missing/)],
    ]);
    const plain = await vsf(['queue', 'list']);
    expect(plain.stderr).toContain(`cannot read queue entry ${truncated}`);
    expect(plain.stderr).toContain(`vsf queue drop ${truncated}`);

    await proxy.restore();
    const flush = await vsf(['queue', 'flush', '--json']);
    expect(flush.code).toBe(1);
    const report = JSON.parse(flush.stdout);
    expect(report.delivered.map((d: { id: string }) => d.id)).toEqual([healthy]);
    expect(report.broken).toHaveLength(3);
    // Refused, not deleted: the files are still there for the user to inspect.
    expect(readFileSync(entryFile(truncated), 'utf8')).toBe(text.slice(0, text.length / 2));
    for (const id of [truncated, versioned, missingCopy]) expect((await vsf(['queue', 'drop', id])).code).toBe(0);
    expect((await vsf(['queue', 'flush'])).code).toBe(0);
    expect((await serverState(worlds[3]!.car.id)).dropOffs).toHaveLength(1);
  });
});
