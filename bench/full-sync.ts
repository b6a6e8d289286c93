import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchContext, SeededTeam } from './lib/bench-context.js';
import { bundle } from './lib/bundle.js';
import { outputOf, peakRss, ROOT, spawnTs } from './lib/child-process.js';
import { type Figure, figure, median } from './lib/figure.js';
import { runSyncChild, type SyncChildRun } from './lib/run-sync-child.js';

const MB = 1024 * 1024;
/** Each sync is run this many times, alternating with its floor, and the medians kept. */
const RUNS = 3;

/**
 * Benchmarks 1 and 7: a full sync of the 100 000-car team through the reference server into SQLite and
 * PostgreSQL mirrors, against the same rows read straight from PostgreSQL into the same kind of mirror
 * (rows/s); and the peak RSS of `vsf sync` doing the same against the same binary with nothing to sync.
 */
export async function fullSync(ctx: BenchContext): Promise<Figure[]> {
  const { big, server, db } = ctx;
  const figures: Figure[] = [];
  const httpRuns: SyncChildRun[] = [];
  const common = { databaseUrl: db.url, teamId: big.teamId, baseUrl: server.baseUrl, apiKey: big.key };
  const sinks = {
    sqlite: async (name: string) => `sqlite:${join(ctx.tmp, `${name}.db`)}`,
    postgres: async (name: string) => {
      await db.freshSchema(name);
      return db.schemaUrl(name);
    },
  };
  for (const [kind, makeSink] of Object.entries(sinks)) {
    const directs: SyncChildRun[] = [];
    const https: SyncChildRun[] = [];
    // Alternated, so a burst of other work on the machine lands on both sides of the ratio.
    for (let run = 0; run < RUNS; run++) {
      // A fresh file each time: a mirror that exists already would make the run an update of it.
      if (kind === 'sqlite') removeSqliteFiles(ctx.tmp, ['floor_sqlite', 'mirror_sqlite']);
      directs.push(await runSyncChild({ ...common, source: 'direct', sinkUrl: await makeSink(`floor_${kind}`) }));
      https.push(await runSyncChild({ ...common, source: 'http', sinkUrl: await makeSink(`mirror_${kind}`) }));
    }
    for (const run of [...directs, ...https]) {
      if (run.rows !== big.cars) throw new Error(`${kind} sync wrote ${run.rows} rows, expected ${big.cars}`);
    }
    httpRuns.push(...https);
    const rates = (runs: SyncChildRun[]) => runs.map((run) => run.rows / (run.durationMs / 1000));
    const httpRate = median(rates(https));
    const directRate = median(rates(directs));
    ctx.log(`full sync → ${kind}: HTTP ${Math.round(httpRate)} rows/s, direct ${Math.round(directRate)} rows/s`);
    figures.push(
      figure({
        id: `full-sync-${kind}`,
        title: `Full sync of 100k cars into ${kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`,
        unit: 'rows/s',
        value: httpRate,
        floor: directRate,
        comparison: '>=',
        // Issue #18: SQLite 0.6, PostgreSQL 0.7.
        target: kind === 'sqlite' ? 0.6 : 0.7,
        floorIs: `the same rows read straight from PostgreSQL into the same ${kind} sink (no HTTP)`,
        details: {
          httpSeconds: seconds(https),
          directSeconds: seconds(directs),
        },
      }),
    );
  }
  // The library's own process (what the throughput figures ran), kept beside the figure for comparison.
  const libraryIdle = await runSyncChild({ ...common, source: 'idle', sinkUrl: await sinks.sqlite('idle') });
  // Memory is measured on `vsf sync` as cron jobs run it. A peak RSS is a process's, and most of a large
  // sync's is V8's sizing (young generation growth, old generation slack), not live objects (~10 MB):
  // only the process's owner may set that, which the bin does at run time (its lean start); a library
  // must leave its host's V8 flags alone. The library's own process, with V8's defaults, is in `details`.
  const vsfRuns: VsfSyncRun[] = [];
  for (const [kind, makeSink] of Object.entries(sinks)) {
    const run = await runVsfSync(ctx, await makeSink(`vsf_${kind}`));
    if (run.rows !== big.cars) throw new Error(`vsf sync → ${kind} wrote ${run.rows} rows, expected ${big.cars}`);
    vsfRuns.push(run);
  }
  // Nothing to sync: the SQLite mirror just made, run again (the events feed has no change since).
  const idle = await runVsfSync(ctx, await sinks.sqlite('vsf_sqlite'));
  if (idle.rows !== 0) throw new Error(`vsf sync with nothing to sync wrote ${idle.rows} rows`);
  const mb = (bytes: number) => Math.round((bytes / MB) * 10) / 10;
  figures.push(
    figure({
      id: 'sync-memory',
      title: 'Peak RSS of a full sync of 100k cars',
      unit: 'MB',
      value: Math.max(...vsfRuns.map((r) => r.peakRssBytes)) / MB,
      floor: idle.peakRssBytes / MB,
      comparison: '<=',
      target: 110,
      targetOn: 'value',
      floorIs:
        'peak RSS of the same `vsf sync` (the bin as published, plain Node) with nothing to sync: the SQLite mirror it just made, run again',
      details: {
        peakMbSqlite: mb(vsfRuns[0]!.peakRssBytes),
        peakMbPostgres: mb(vsfRuns[1]!.peakRssBytes),
        libraryPeakMbSqlite: mb(Math.max(...httpRuns.slice(0, RUNS).map((r) => r.sampledPeakRssBytes))),
        libraryPeakMbPostgres: mb(Math.max(...httpRuns.slice(RUNS).map((r) => r.sampledPeakRssBytes))),
        libraryFloorMb: mb(libraryIdle.sampledPeakRssBytes),
      },
    }),
  );
  return figures;
}

function removeSqliteFiles(dir: string, names: string[]): void {
  for (const name of names) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(dir, `${name}.db${suffix}`), { force: true });
  }
}

/** Each run's seconds, in the order run. */
const seconds = (runs: SyncChildRun[]) => runs.map((run) => (Math.round(run.durationMs) / 1000).toFixed(2)).join(', ');

export interface VsfSyncRun {
  /** Cars the run wrote. */
  rows: number;
  peakRssBytes: number;
}

let vsfBin: Promise<string> | undefined;

/**
 * `vsf sync --resources cars --to <sink> --json --quiet` (the crontab line of the CLI's README) in its own
 * process, the bin bundled as published, with `team`'s key (the 100k team unless told); its peak RSS is
 * the larger of its own VmHWM, printed as it exits, and what this process saw sampling it every 50 ms.
 */
export async function runVsfSync(ctx: BenchContext, sinkUrl: string, team: SeededTeam = ctx.big): Promise<VsfSyncRun> {
  vsfBin ??= bundle('packages/cli/src/bin/vsf.ts', join(ROOT, 'bench/.build'));
  const reportRss = join(ctx.tmp, 'report-rss.mjs');
  writeFileSync(
    reportRss,
    "import { readFileSync } from 'node:fs';\n" +
      "process.on('exit', () => process.stderr.write('maxrss=' + /VmHWM:\\s*(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1] + '\\n'));\n",
  );
  const child = spawnTs(
    await vsfBin,
    ['sync', '--resources', 'cars', '--to', sinkUrl, '--json', '--quiet'],
    {
      NODE_OPTIONS: `--import=${reportRss}`,
      VSF_API_KEY: team.key,
      VSF_BASE_URL: ctx.server.baseUrl,
      // No profile or offline queue of whoever runs the benchmarks.
      XDG_CONFIG_HOME: ctx.tmp,
      XDG_DATA_HOME: ctx.tmp,
    },
    'pipe',
  );
  let sampled = 0;
  const sampler = setInterval(() => {
    try {
      sampled = Math.max(sampled, peakRss(child.pid!));
    } catch {
      // Exited: its own report has the final figure.
    }
  }, 50);
  const { code, stdout, stderr } = await outputOf(child);
  clearInterval(sampler);
  if (code !== 0) throw new Error(`vsf sync --to ${sinkUrl} exited ${code}:\n${stdout}${stderr}`);
  const { resources } = JSON.parse(stdout) as { resources: { resource: string; upserted: number }[] };
  const own = /maxrss=(\d+)/.exec(stderr)?.[1];
  if (!own) throw new Error(`vsf sync --to ${sinkUrl} reported no peak RSS:\n${stderr}`);
  return {
    rows: resources.find((r) => r.resource === 'cars')?.upserted ?? 0,
    peakRssBytes: Math.max(sampled, Number(own) * 1024),
  };
}
