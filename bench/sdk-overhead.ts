import { VsfClient } from '@vsf/sdk';
import type { BenchContext } from './lib/bench-context.js';
import { type Figure, figure } from './lib/figure.js';
import { interleavedMedians } from './lib/timing.js';

const RUNS = 300;

/** Benchmark 5: `client.cars.get(id)` against a bare `fetch` of the same URL with the same key. */
export async function sdkOverhead(ctx: BenchContext): Promise<Figure[]> {
  const { server, small, db } = ctx;
  const [car] = await db.knex('cars').where({ team_id: small.teamId }).select('id').limit(1);
  const client = new VsfClient({ apiKey: small.key, baseUrl: server.baseUrl, logLevel: 'off' });
  const url = `${server.baseUrl}/cars/${car.id}`;
  const bare = async () => {
    const res = await fetch(url, { headers: { authorization: `Bearer ${small.key}`, accept: 'application/json' } });
    if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
    return ((await res.json()) as { data: unknown }).data;
  };
  const sdk = async () => {
    const found = await client.cars.get(car.id);
    if (found.id !== car.id) throw new Error(`client.cars.get returned ${found.id}`);
  };
  const [sdkMs, fetchMs] = await interleavedMedians(sdk, bare, RUNS, 20);
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
      floorIs: 'median latency of a bare fetch of the same URL with the same key, measured alternately',
    }),
  ];
}
