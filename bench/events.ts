import { join } from 'node:path';
import { openSink, type ResourceSpec, type Sink, selectResources } from '@vsf/sync';
import autocannon from 'autocannon';
import type { BenchContext } from './lib/bench-context.js';
import { bundle } from './lib/bundle.js';
import { ROOT, spawnTs, stop } from './lib/child-process.js';
import { type Figure, figure, median } from './lib/figure.js';

const CONNECTIONS = 32;
const SECONDS = 8;
/** Rounds of both sides; each side's median is kept. */
const ROUNDS = 3;
const CHANGES = 100;
/** The cron interval `--follow` replaces: a mirror refreshed once a minute is up to a minute old. */
const CRON_INTERVAL_MS = 60_000;

/**
 * The `events` extension's two costs and its gain:
 * - what recording every change costs writes: POST /cars with the cars table's event trigger on, against
 *   the same server with it disabled, alternated (which side goes first too) so drift hits both (target:
 *   at least 0.85 of it, issue #34's; round two's issue asked 0.9);
 * - how far behind `vsf sync --follow` keeps a mirror: from a PATCH's response to its value in the
 *   follower's SQLite mirror, one change at a time (targets p50 ≤ 50 ms, p99 ≤ 250 ms), beside the cron it
 *   replaces.
 */
export async function events(ctx: BenchContext): Promise<Figure[]> {
  return [await writeCost(ctx), ...(await followLatency(ctx))];
}

async function writeCost(ctx: BenchContext): Promise<Figure> {
  const { server, db } = ctx;
  const writer = await server.createTeamWithKey('Bench event writes');
  const body = JSON.stringify({ year: 2021, make: 'Toyota', model: 'Corolla' });
  const rate = async (duration: number) => {
    const result = await autocannon({
      url: `${server.baseUrl}/cars`,
      method: 'POST',
      connections: CONNECTIONS,
      duration,
      headers: { authorization: `Bearer ${writer.key}`, 'content-type': 'application/json' },
      body,
    });
    const failed = result.non2xx + result.errors + result.timeouts;
    if (failed > 0) throw new Error(`POST /cars: ${failed} failed requests`);
    return result.requests.average;
  };
  const trigger = (on: boolean) =>
    db.knex.raw(`alter table cars ${on ? 'enable' : 'disable'} trigger cars_record_events`);
  const withEvents: number[] = [];
  const without: number[] = [];
  await rate(2); // warm-up
  try {
    // The side that goes first alternates, so what grows as the stage goes on (the table, PostgreSQL's
    // background work) does not always land on the same side: with the trigger's side always second, one
    // run gave 0.63 (rounds 0.69 and 0.56) where the runs around it gave 0.83 to 0.90.
    for (let round = 0; round < ROUNDS; round++) {
      for (const on of round % 2 === 0 ? [false, true] : [true, false]) {
        await trigger(on);
        (on ? withEvents : without).push(await rate(SECONDS));
      }
    }
  } finally {
    await trigger(true);
  }
  const value = median(withEvents);
  const floor = median(without);
  ctx.log(`events write cost: ${Math.round(value)} req/s recording events, ${Math.round(floor)} without`);
  return figure({
    id: 'events-write-cost',
    title: `POST /cars recording events, ${CONNECTIONS} connections`,
    unit: 'req/s',
    value,
    floor,
    comparison: '>=',
    // Issue #34's target for this figure (round two's issue asked 0.9; the README gives both).
    target: 0.85,
    floorIs: 'the same server and load with the cars table’s event trigger disabled, alternated with it',
    details: { withEvents: withEvents.map(Math.round).join(', '), without: without.map(Math.round).join(', ') },
  });
}

async function followLatency(ctx: BenchContext): Promise<Figure[]> {
  const { server, small } = ctx;
  const vsf = await bundle('packages/cli/src/bin/vsf.ts', join(ROOT, 'bench/.build'));
  const file = join(ctx.tmp, 'follow.db');
  const follower = spawnTs(vsf, ['sync', '--follow', '--quiet', '--to', `sqlite:${file}`, '--resources', 'cars'], {
    VSF_API_KEY: small.key,
    VSF_BASE_URL: server.baseUrl,
  });
  const headers = { authorization: `Bearer ${small.key}`, 'content-type': 'application/json' };
  try {
    const cars = selectResources(['cars'])[0] as ResourceSpec;
    const mirror = await openWhenFollowing(file, cars);
    const ids = await mirror.idsAfter(cars, null, CHANGES);
    const color = async (id: string) => (await mirror.readByIds(cars, [id]))[0]?.color;
    const lags: number[] = [];
    for (const [i, id] of ids.entries()) {
      const value = `follow-${i}`;
      const res = await fetch(`${server.baseUrl}/cars/${id}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ color: value }),
      });
      if (!res.ok) throw new Error(`PATCH /cars/${id}: ${res.status}`);
      await res.arrayBuffer();
      const written = performance.now();
      while ((await color(id)) !== value) {
        if (performance.now() - written > 30_000) throw new Error(`change ${i} never reached the mirror`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      lags.push(performance.now() - written);
    }
    await mirror.close();
    lags.sort((a, b) => a - b);
    const p50 = lags[Math.floor(lags.length * 0.5)] as number;
    const p99 = lags[Math.ceil(lags.length * 0.99) - 1] as number;
    ctx.log(`follow latency: p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms over ${lags.length} changes`);
    const details = { p50Ms: Math.round(p50), p99Ms: Math.round(p99), maxMs: Math.round(lags.at(-1) as number) };
    const floorIs = 'the staleness a once-a-minute cron `vsf sync` allows (the interval it replaces)';
    // Issue #34's targets: the feed wakes on commit, so a change reaches the mirror in one round trip or two.
    return [
      figure({
        id: 'follow-latency-p50',
        title: `Change to mirror with vsf sync --follow, p50 of ${CHANGES}`,
        unit: 'ms',
        value: p50,
        floor: CRON_INTERVAL_MS,
        comparison: '<=',
        target: 50,
        targetOn: 'value',
        floorIs,
        details,
      }),
      figure({
        id: 'follow-latency',
        title: `Change to mirror with vsf sync --follow, p99 of ${CHANGES}`,
        unit: 'ms',
        value: p99,
        floor: CRON_INTERVAL_MS,
        comparison: '<=',
        target: 250,
        targetOn: 'value',
        floorIs,
        details,
      }),
    ];
  } finally {
    await stop(follower);
  }
}

/** The follower's mirror (read beside it, never locked), once its first run set where it follows from. */
async function openWhenFollowing(file: string, cars: ResourceSpec): Promise<Sink> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const sink = openSink(`sqlite:${file}`);
    try {
      if ((await sink.hasMirror(cars)) && (await sink.getState(cars)).feedCursor != null) return sink;
    } catch {
      // Not created yet.
    }
    await sink.close();
    if (Date.now() > deadline) throw new Error('vsf sync --follow did not finish its first run within 2 minutes');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
