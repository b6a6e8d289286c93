import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchContext } from './lib/bench-context.js';
import { bundle } from './lib/bundle.js';
import { startByteCountingProxy } from './lib/byte-counting-proxy.js';
import { outputOf, peakRss, ROOT, spawnTs } from './lib/child-process.js';
import { type Figure, figure, median } from './lib/figure.js';
import { startReferenceServer } from './lib/reference-server.js';

const PHOTOS = 40;
const PHOTO_BYTES = 2_500_000;
/**
 * Rounds of both sides, in turn, the side that goes first alternating: a machine that gets busier or quieter
 * during the stage slows both alike, and the figure is the median of the rounds (issue #34: hold on a busy
 * machine, not only on a quiet one).
 */
const ROUNDS = 3;
const MB = 1024 * 1024;

/** A JPEG signature (what the server's magic-byte check reads) followed by incompressible bytes. */
function fakeJpeg(): Buffer {
  const bytes = randomBytes(PHOTO_BYTES);
  bytes.set([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00], 0);
  return bytes;
}

/** Wall time of a child process from spawn to exit (both sides pay a Node start-up). */
async function timed(child: ChildProcess, label: string): Promise<{ ms: number; stdout: string }> {
  const started = performance.now();
  const { code, stdout, stderr } = await outputOf(child);
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`${label} exited ${code}:\n${stderr}\n${stdout}`);
  return { ms, stdout };
}

/**
 * Benchmark 6: `vsf photos upload` of 40 photos of 2.5 MB with its default concurrency against one
 * sequential loop of bare fetch POSTs, both as fresh processes, in alternating rounds (ROUNDS), bundled as the published CLI is (under
 * tsx the CLI alone took ~3.5 s to start). The server runs in its own process
 * (photos on disk) so its peak RSS is the uploads' alone.
 */
export async function photoUpload(ctx: BenchContext): Promise<Figure[]> {
  const dir = join(ctx.tmp, 'photos');
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < PHOTOS; i++) writeFileSync(join(dir, `photo-${String(i).padStart(2, '0')}.jpg`), fakeJpeg());
  const buildDir = join(ROOT, 'bench/.build');
  const [cliBundle, loopBundle] = [
    await bundle('packages/cli/src/bin/vsf.ts', buildDir),
    await bundle('bench/lib/sequential-upload.ts', buildDir),
  ];
  const server = await startReferenceServer(ctx.db.url, { VSF_MEDIA_DIR: join(ctx.tmp, 'media') });
  try {
    const { teamId, key } = await server.createTeamWithKey('Bench photos');
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${server.baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { data: { id: string; sessionId: string } }).data;
    };
    const car = await post('/cars', { year: 2020, make: 'Subaru', model: 'Outback' });
    const session = async () => (await post(`/cars/${car.id}/events`, { activityType: 'inspection' })).sessionId;
    const rssBefore = peakRss(server.pid);
    // Both sides upload through the same counting pass-through: its cost is theirs alike.
    const wire = await startByteCountingProxy(server.baseUrl);

    const loopRun = async () => {
      const loopSession = await session();
      wire.takeSent();
      const run = await timed(
        spawnTs(loopBundle, [wire.url, key, car.id, loopSession, dir], {}, 'pipe'),
        'sequential upload',
      );
      return { ms: run.ms, bytes: wire.takeSent() };
    };
    const cliRun = async () => {
      const cliSession = await session();
      wire.takeSent();
      const run = await timed(
        spawnTs(
          cliBundle,
          ['photos', 'upload', car.id, '--session', cliSession, dir, '--json', '--quiet'],
          { VSF_API_KEY: key, VSF_BASE_URL: wire.url, VSF_PROFILE: '', HOME: ctx.tmp, XDG_CONFIG_HOME: ctx.tmp },
          'pipe',
        ),
        'vsf photos upload',
      );
      const report = JSON.parse(run.stdout) as { uploaded: unknown[]; failed: unknown[] };
      if (report.uploaded.length !== PHOTOS) throw new Error(`the CLI uploaded ${report.uploaded.length} photos`);
      return { ms: run.ms, bytes: wire.takeSent() };
    };
    const loops: { ms: number; bytes: number }[] = [];
    const clis: { ms: number; bytes: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) {
        loops.push(await loopRun());
        clis.push(await cliRun());
      } else {
        clis.push(await cliRun());
        loops.push(await loopRun());
      }
    }
    await wire.close();
    const stored = await ctx.db.knex('media').where({ team_id: teamId }).count({ n: '*' }).first();
    if (Number(stored?.n) !== 2 * PHOTOS * ROUNDS) {
      throw new Error(`${stored?.n} photos stored, not ${2 * PHOTOS * ROUNDS}`);
    }
    const loop = { ms: median(loops.map((r) => r.ms)) };
    const cli = { ms: median(clis.map((r) => r.ms)) };
    const [loopBytes, cliBytes] = [median(loops.map((r) => r.bytes)), median(clis.map((r) => r.bytes))];
    const serverPeak = peakRss(server.pid);
    ctx.log(
      `photos: CLI ${Math.round(cli.ms)} ms, loop ${Math.round(loop.ms)} ms, server peak ${Math.round(serverPeak / MB)} MB`,
    );
    return [
      figure({
        id: 'photo-upload',
        title: `vsf photos upload, ${PHOTOS} × 2.5 MB`,
        unit: 'MB/s',
        value: (PHOTOS * PHOTO_BYTES) / MB / (cli.ms / 1000),
        floor: (PHOTOS * PHOTO_BYTES) / MB / (loop.ms / 1000),
        comparison: '>=',
        target: 2,
        floorIs: 'the same photos posted by one sequential loop of bare fetch calls (a fresh process too)',
        details: {
          cliMs: Math.round(cli.ms),
          sequentialFetchMs: Math.round(loop.ms),
          cliRoundsMs: clis.map((r) => Math.round(r.ms)).join(', '),
          sequentialRoundsMs: loops.map((r) => Math.round(r.ms)).join(', '),
          roundRatios: loops.map((r, i) => (r.ms / (clis[i]?.ms ?? r.ms)).toFixed(2)).join(', '),
          serverRssBeforeMb: Math.round(rssBefore / MB),
          serverPeakRssMb: Math.round(serverPeak / MB),
        },
      }),
      figure({
        id: 'photo-upload-bytes',
        title: `bytes sent by vsf photos upload, ${PHOTOS} × 2.5 MB`,
        unit: 'MB',
        value: cliBytes / MB,
        floor: loopBytes / MB,
        comparison: '<=',
        target: 0.75,
        floorIs: 'the same photos as the spec’s base64 JSON bodies (the sequential loop), counted on the wire',
        details: { cliBytes, sequentialFetchBytes: loopBytes },
      }),
    ];
  } finally {
    await server.close();
  }
}
