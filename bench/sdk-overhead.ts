import { join } from 'node:path';
import type { BenchContext } from './lib/bench-context.js';
import { bundle } from './lib/bundle.js';
import { outputOf, ROOT, spawnTs } from './lib/child-process.js';
import { type Figure, figure, median } from './lib/figure.js';
import type { SdkOverheadResult } from './lib/sdk-overhead-child.js';

const RUNS = 400;
/**
 * Processes each measuring RUNS pairs: a process's own state (its JIT, its heap) moves the ratio by a few %,
 * as does which call goes first in a pair (alternated between processes).
 */
const PROCESSES = 4;

/**
 * Benchmark 5: `client.cars.get(id)` against a bare `fetch` of the same URL with the same key, both in a
 * child process running the SDK as built (lib/sdk-overhead-child.ts); the medians over a few such processes.
 */
export async function sdkOverhead(ctx: BenchContext): Promise<Figure[]> {
  const { server, small, db } = ctx;
  const [car] = await db.knex('cars').where({ team_id: small.teamId }).select('id').limit(1);
  const runs: SdkOverheadResult[] = [];
  for (let i = 0; i < PROCESSES; i++) {
    const order = i % 2 === 0 ? 'sdk-first' : 'bare-first';
    runs.push(await runSdkOverheadChild([server.baseUrl, small.key, car.id, String(RUNS), order]));
  }
  const sdkMs = median(runs.map((run) => run.sdkMs));
  const fetchMs = median(runs.map((run) => run.fetchMs));
  ctx.log(`sdk: client.cars.get ${sdkMs.toFixed(2)} ms, fetch ${fetchMs.toFixed(2)} ms`);
  return [
    figure({
      id: 'sdk-overhead-get',
      title: 'client.cars.get vs bare fetch',
      unit: 'ms',
      value: sdkMs,
      floor: fetchMs,
      comparison: '<=',
      target: 1.05,
      floorIs:
        'median latency of a bare fetch of the same URL with the same key, measured alternately in the same process',
      details: {
        ratios: runs.map((run) => (run.sdkMs / run.fetchMs).toFixed(3)).join(', '),
        // The same comparison of bare fetch with itself, in the same processes: differences this size are noise.
        bareVsBare: runs.map((run) => run.bareVsBare.toFixed(3)).join(', '),
      },
    }),
  ];
}

let bundled: Promise<string> | undefined;

async function runSdkOverheadChild(args: string[]): Promise<SdkOverheadResult> {
  bundled ??= bundle('bench/lib/sdk-overhead-child.ts', join(ROOT, 'bench/.build'));
  const { code, stdout, stderr } = await outputOf(spawnTs(await bundled, args, {}, 'pipe'));
  if (code !== 0) throw new Error(`sdk overhead child exited ${code}:\n${stderr}`);
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as SdkOverheadResult;
}
