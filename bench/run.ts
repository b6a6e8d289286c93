/**
 * `pnpm bench`: seeds a fresh PostgreSQL database, runs every benchmark against a floor measured in the
 * same run, prints a table and writes bench/results/latest.json. `pnpm bench list-latency sync-memory`
 * runs only the named benchmarks (results then go to bench/results/partial.json; `pnpm bench scale`'s alone go to
 * bench/results/scale.json).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assistantTool } from './assistant-tool.js';
import { events } from './events.js';
import { fullSync } from './full-sync.js';
import { idleLongPolls } from './idle-long-polls.js';
import { incrementalSync } from './incremental-sync.js';
import type { BenchContext } from './lib/bench-context.js';
import { ROOT } from './lib/child-process.js';
import { createBenchDatabase, redact } from './lib/database.js';
import type { Figure } from './lib/figure.js';
import { startReferenceServer } from './lib/reference-server.js';
import { printTable, writeResults } from './lib/report.js';
import { seedCars, settle } from './lib/seed-cars.js';
import { listLatency } from './list-latency.js';
import { photoUpload } from './photo-upload.js';
import { scale } from './scale.js';
import { sdkOverhead } from './sdk-overhead.js';
import { throughput } from './throughput.js';
import { webhookDelivery } from './webhook-delivery.js';

const BIG_TEAM_CARS = 100_000;
const SMALL_TEAM_CARS = 1_000;

const benchmarks: Record<string, (ctx: BenchContext) => Promise<Figure[]>> = {
  // Full sync first: incremental-sync reuses its 100k mirror instead of syncing the team again.
  'full-sync': fullSync,
  'incremental-sync': incrementalSync,
  'list-latency': listLatency,
  'sdk-overhead': sdkOverhead,
  throughput,
  'photo-upload': photoUpload,
  events,
  'assistant-tool': assistantTool,
  // Last: their hung receivers and a thousand waiting requests must not overlap another stage's figures.
  webhooks: webhookDelivery,
  'long-polls': idleLongPolls,
  // Only when named (`pnpm bench scale`): it seeds 2 million more cars and syncs a million three times.
  scale,
};

/** Stages the default run leaves out, for their length. */
const ONLY_WHEN_NAMED = new Set(['scale']);

/** The benchmarks that read the 100 000-car team; seeding it takes minutes, so only when one of them runs. */
const NEED_BIG_TEAM = new Set(['full-sync', 'incremental-sync', 'list-latency', 'scale']);

/** Every stage's results are checked in as latest.json, the scale stage's as scale.json; any other selection's are not. */
function resultsFile(selected: string[]): string {
  if (selected.length === 0) return 'latest.json';
  return selected.length === 1 && ONLY_WHEN_NAMED.has(selected[0]!) ? `${selected[0]}.json` : 'partial.json';
}

async function main() {
  const started = performance.now();
  const selected = process.argv.slice(2);
  const unknown = selected.filter((name) => !(name in benchmarks));
  if (unknown.length > 0) {
    throw new Error(`Unknown benchmark(s): ${unknown.join(', ')}; choose from ${Object.keys(benchmarks).join(', ')}`);
  }
  const log = (message: string) => console.error(`[${((performance.now() - started) / 1000).toFixed(0)}s] ${message}`);
  const db = await createBenchDatabase();
  log(`fresh database ${redact(db.url)}`);
  const tmp = mkdtempSync(join(tmpdir(), 'vsf-bench-'));
  // Webhook receivers of the `webhooks` stage listen on loopback over http.
  const server = await startReferenceServer(db.url, { VSF_WEBHOOK_ALLOW_HTTP_LOOPBACK: '1' });
  const figures: Figure[] = [];
  try {
    const bigTeam = await server.createTeamWithKey('Bench 100k');
    const smallTeam = await server.createTeamWithKey('Bench 1k');
    const bigCars = selected.length === 0 || selected.some((name) => NEED_BIG_TEAM.has(name)) ? BIG_TEAM_CARS : 0;
    if (bigCars > 0) await seedCars(db.knex, bigTeam.teamId, bigCars);
    await seedCars(db.knex, smallTeam.teamId, SMALL_TEAM_CARS);
    await settle(db.knex);
    log(`seeded ${bigCars} + ${SMALL_TEAM_CARS} cars`);
    const ctx: BenchContext = {
      db,
      server,
      big: { ...bigTeam, cars: bigCars },
      small: { ...smallTeam, cars: SMALL_TEAM_CARS },
      tmp,
      log,
    };
    for (const [name, run] of Object.entries(benchmarks)) {
      if (selected.length > 0 ? !selected.includes(name) : ONLY_WHEN_NAMED.has(name)) continue;
      log(`▶ ${name}`);
      // The stage before may have left PostgreSQL gigabytes of dirty pages (the syncs write 100k-row
      // mirrors): written out now, not by the checkpointer in the middle of this stage's measurements.
      await db.knex.raw('checkpoint');
      figures.push(...(await run(ctx)));
    }
  } finally {
    await server.close();
    await db.drop();
    rmSync(tmp, { recursive: true, force: true });
  }
  const durationMs = performance.now() - started;
  printTable(figures);
  const file = writeResults(figures, durationMs, join(ROOT, 'bench/results', resultsFile(selected)));
  console.log(
    `\n${figures.filter((f) => f.met).length}/${figures.length} targets met in ${Math.round(durationMs / 1000)} s; wrote ${file}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
