import { teamRowCount } from '../packages/server/src/repositories/team-row-counts.js';
import type { BenchContext, SeededTeam } from './lib/bench-context.js';
import { type Figure, figure } from './lib/figure.js';
import { interleavedMedians, medianMs } from './lib/timing.js';

export const LIMIT = 200;
const DEEP_PAGE = 500;
const RUNS = 40;

/**
 * Benchmark 3: `GET /cars?limit=200` page 500 (the last page of 100 000 cars) against page 1. Also
 * reports what `total` costs: the team row count the server reads for an unfiltered list, run alone, next to
 * the page-1 latency (and the `count(*)` it replaced).
 */
export async function listLatency(ctx: BenchContext): Promise<Figure[]> {
  const { big, server, db } = ctx;
  const get = (page: number) => getListPage(server.baseUrl, big, page);
  const [first, deep] = await interleavedMedians(get(1), get(DEEP_PAGE), RUNS);
  // The server seeks a page from the nearer end of the list: the middle page is the farthest from both.
  const [, middle] = await interleavedMedians(get(1), get(DEEP_PAGE / 2), RUNS);
  // What the server runs for an unfiltered list's `total`, and the count(*) it replaced.
  const totalMs = await medianMs(() => teamRowCount(db.knex, big.teamId, 'cars'), RUNS);
  const countMs = await medianMs(() => db.knex('cars').where({ team_id: big.teamId }).count({ n: '*' }), RUNS);
  ctx.log(
    `list: page 1 ${first.toFixed(1)} ms, page ${DEEP_PAGE} ${deep.toFixed(1)} ms, page ${DEEP_PAGE / 2} ${middle.toFixed(1)} ms, total ${totalMs.toFixed(2)} ms (count(*) ${countMs.toFixed(1)} ms)`,
  );
  return [
    figure({
      id: 'list-latency-deep-page',
      title: `GET /cars page ${DEEP_PAGE} vs page 1 (limit ${LIMIT}, 100k cars)`,
      unit: 'ms',
      value: deep,
      floor: first,
      comparison: '<=',
      target: 3,
      floorIs: 'median latency of page 1 of the same list, measured alternately',
      details: { middlePageMs: Math.round(middle * 100) / 100 },
    }),
    figure({
      id: 'list-total-cost',
      title: `Cost of \`total\` on GET /cars page 1 (limit ${LIMIT}, 100k cars)`,
      unit: 'ms',
      value: totalMs,
      floor: first,
      comparison: '<=',
      // Issue #18: the exact count may take at most a fifth of the request.
      target: 0.2,
      floorIs:
        'median latency of the whole page-1 request; value: the team row count the server reads for it, run alone',
      details: { countStarMs: Math.round(countMs * 100) / 100 },
    }),
  ];
}

/** `GET /cars?limit=200&page=<page>` with `team`'s key, checked: a full page and the team's exact `total`. */
export function getListPage(baseUrl: string, team: SeededTeam, page: number): () => Promise<void> {
  return async () => {
    const res = await fetch(`${baseUrl}/cars?limit=${LIMIT}&page=${page}`, {
      headers: { authorization: `Bearer ${team.key}` },
    });
    const body = (await res.json()) as { data: unknown[]; total: number };
    if (res.status !== 200 || body.data.length !== LIMIT || body.total !== team.cars) {
      throw new Error(`page ${page}: status ${res.status}, ${body.data?.length} rows, total ${body.total}`);
    }
  };
}
