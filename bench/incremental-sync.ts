import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { VsfClient } from '@vsf/sdk';
import { openSink, sdkPageSource, sync } from '@vsf/sync';
import type { BenchContext, SeededTeam } from './lib/bench-context.js';
import { type Figure, figure, median } from './lib/figure.js';

const CHANGED = 100;
// Nine: a run is ~10 ms, so two slow rounds moved a median of five (quiet runs gave 1.15 to 1.9; measured
// apart, seven rounds a team, the two teams took the same ~9 ms).
const ROUNDS = 9;

/**
 * Benchmark 2: an incremental sync that picks up 100 changed cars, in the 100 000-car team against the
 * 1 000-car team (each mirrored in full first). Rounds alternate between the teams; medians are compared.
 * The cars change through SQL (`updated_at = now()`), as the API would stamp them. The 100k mirror of
 * the full-sync benchmark is reused when it ran first. Each run is started more than a second after the
 * changes with no lookback, so it fetches exactly the 100 cars (a watermark is the server's `Date`
 * header, whole seconds).
 */
export async function incrementalSync(ctx: BenchContext): Promise<Figure[]> {
  const samples = await incrementalSamples(ctx, [
    { team: ctx.small, mirror: join(ctx.tmp, 'incremental-0.db') },
    { team: ctx.big, mirror: join(ctx.tmp, 'mirror_sqlite.db') },
  ]);
  const big = samples.get(ctx.big)!;
  const small = samples.get(ctx.small)!;
  ctx.log(`incremental: 100k team ${median(big).toFixed(1)} ms, 1k team ${median(small).toFixed(1)} ms`);
  return [
    figure({
      id: 'incremental-sync',
      title: 'Incremental sync of 100 changed cars, 100k-car vs 1k-car team',
      unit: 'ms',
      value: median(big),
      floor: median(small),
      comparison: '<=',
      target: 1.5,
      floorIs: 'the same incremental sync of 100 changed cars in a 1 000-car team',
    }),
  ];
}

/**
 * Median-ready samples of incremental syncs of 100 changed cars, ROUNDS per team, rounds alternating
 * between the teams. Each team's SQLite `mirror` is used as it is when it exists (a full sync made it),
 * else mirrored in full first.
 */
export async function incrementalSamples(
  ctx: BenchContext,
  teams: { team: SeededTeam; mirror: string }[],
): Promise<Map<SeededTeam, number[]>> {
  const mirrors = teams.map(({ team, mirror }) => {
    const client = new VsfClient({ apiKey: team.key, baseUrl: ctx.server.baseUrl, logLevel: 'off' });
    return { team, source: sdkPageSource(client), reuse: existsSync(mirror), sink: openSink(`sqlite:${mirror}`) };
  });
  for (const { source, sink, team, reuse } of mirrors) {
    if (reuse) continue;
    const full = await sync({ source, sink, resources: ['cars'], mode: 'full' });
    if (full.resources[0]?.upserted !== team.cars)
      throw new Error(`full sync of ${team.cars} cars: ${JSON.stringify(full)}`);
  }
  ctx.log(`incremental: ${teams.length} teams mirrored in full`);
  const samples = new Map<SeededTeam, number[]>(mirrors.map((m) => [m.team, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const { team, source, sink } of mirrors) {
      const changed = await ctx.db.knex.raw(
        `update cars set mileage = mileage + 1, updated_at = now()
         where id in (select id from cars where team_id = ? order by random() limit ?)`,
        [team.teamId, CHANGED],
      );
      if (changed.rowCount !== CHANGED) throw new Error(`changed ${changed.rowCount} cars, expected ${CHANGED}`);
      await sleep(1100);
      const started = performance.now();
      const result = await sync({ source, sink, resources: ['cars'], mode: 'incremental', lookbackMs: 0 });
      const ms = performance.now() - started;
      const cars = result.resources[0]!;
      if (!result.ok || cars.mode !== 'incremental' || cars.upserted !== CHANGED) {
        throw new Error(`incremental sync of ${team.cars} cars: ${JSON.stringify(cars)}`);
      }
      samples.get(team)!.push(ms);
    }
  }
  for (const { sink } of mirrors) await sink.close();
  return samples;
}
