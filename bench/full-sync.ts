import { join } from 'node:path';
import type { BenchContext } from './lib/bench-context.js';
import { type Figure, figure } from './lib/figure.js';
import { runSyncChild, type SyncChildRun } from './lib/run-sync-child.js';

const MB = 1024 * 1024;

/**
 * Benchmarks 1 and 7: a full sync of the 100 000-car team through the reference server into SQLite and
 * PostgreSQL mirrors, against the same rows read straight from PostgreSQL into the same kind of mirror
 * (rows/s); and the peak RSS of the HTTP sync processes against one that loads the same code and syncs
 * nothing.
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
    const direct = await runSyncChild({ ...common, source: 'direct', sinkUrl: await makeSink(`floor_${kind}`) });
    const http = await runSyncChild({ ...common, source: 'http', sinkUrl: await makeSink(`mirror_${kind}`) });
    for (const run of [direct, http]) {
      if (run.rows !== big.cars) throw new Error(`${kind} sync wrote ${run.rows} rows, expected ${big.cars}`);
    }
    httpRuns.push(http);
    const rate = (run: SyncChildRun) => run.rows / (run.durationMs / 1000);
    ctx.log(`full sync → ${kind}: HTTP ${Math.round(rate(http))} rows/s, direct ${Math.round(rate(direct))} rows/s`);
    figures.push(
      figure({
        id: `full-sync-${kind}`,
        title: `Full sync of 100k cars into ${kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`,
        unit: 'rows/s',
        value: rate(http),
        floor: rate(direct),
        comparison: '>=',
        // Issue #18: SQLite 0.6, PostgreSQL 0.7.
        target: kind === 'sqlite' ? 0.6 : 0.7,
        floorIs: `the same rows read straight from PostgreSQL into the same ${kind} sink (no HTTP)`,
        details: {
          httpSeconds: Math.round(http.durationMs) / 1000,
          directSeconds: Math.round(direct.durationMs) / 1000,
        },
      }),
    );
  }
  const idle = await runSyncChild({ ...common, source: 'idle', sinkUrl: await sinks.sqlite('idle') });
  const peak = Math.max(...httpRuns.map((r) => r.sampledPeakRssBytes));
  figures.push(
    figure({
      id: 'sync-memory',
      title: 'Peak RSS of a full sync of 100k cars',
      unit: 'MB',
      value: peak / MB,
      floor: idle.sampledPeakRssBytes / MB,
      comparison: '<=',
      target: 110,
      targetOn: 'value',
      floorIs: 'peak RSS of the same process loading the same code and opening the mirror, syncing nothing',
      details: Object.fromEntries(
        httpRuns.map((r, i) => [`peakMb${i ? 'Postgres' : 'Sqlite'}`, Math.round(r.sampledPeakRssBytes / MB)]),
      ),
    }),
  );
  return figures;
}
