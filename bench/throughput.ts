import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { BenchContext } from './lib/bench-context.js';
import { ROOT, spawnTs, stop, waitForLine } from './lib/child-process.js';
import { type Figure, figure } from './lib/figure.js';
import { startReferenceServer } from './lib/reference-server.js';

const CONNECTIONS = 32;
const SECONDS = 8;
const WARMUP_SECONDS = 2;

interface Load {
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
  /** Each request carries a new `Idempotency-Key`, as every SDK and CLI create does. */
  idempotent?: boolean;
}

/** With several origins (instances of one server), autocannon spreads the connections over them in turn. */
async function requestsPerSecond(
  origin: string | string[],
  load: Load,
  headers: Record<string, string>,
): Promise<number> {
  const urls = (Array.isArray(origin) ? origin : [origin]).map((o) => `${o}${load.path}`);
  const run = (duration: number) =>
    autocannon({
      // autocannon takes an array of URLs (its README); its type declaration says only string.
      url: (urls.length === 1 ? urls[0] : urls) as string,
      method: load.method ?? 'GET',
      connections: CONNECTIONS,
      duration,
      headers: { ...headers, ...(load.body ? { 'content-type': 'application/json' } : {}) },
      ...(load.body ? { body: load.body } : {}),
      ...(load.idempotent
        ? {
            requests: [
              {
                setupRequest: (request: autocannon.Request) => ({
                  ...request,
                  headers: { ...request.headers, 'idempotency-key': randomUUID() },
                }),
              },
            ],
          }
        : {}),
    });
  await run(WARMUP_SECONDS);
  const result = await run(SECONDS);
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0)
    throw new Error(`${load.method ?? 'GET'} ${load.path}: ${failed} failed requests (non-2xx, errors or timeouts)`);
  return result.requests.average;
}

/**
 * Benchmark 4: requests/s of the reference server (auth, validation, request logging and the
 * per-key rate limit all on) against a bare node:http + pg server running the same SQL, 32 connections.
 * Reads use the 1 000-car team, so the database work is small and the server's own overhead shows.
 */
export async function throughput(ctx: BenchContext): Promise<Figure[]> {
  const { server, db, small } = ctx;
  const writer = await server.createTeamWithKey('Bench writes');
  const [car] = await db.knex('cars').where({ team_id: small.teamId }).select('id').limit(1);
  const newCar = JSON.stringify({ year: 2021, make: 'Toyota', model: 'Corolla', vin: '2T1BURHE5JC000001' });
  const loads: {
    id: string;
    title: string;
    load: Load;
    teamId: string;
    key: string;
    target: number;
    /** Also measure Express 5 alone on the floor's SQL (express-ceiling-server.ts): the framework's own cost. */
    ceiling?: boolean;
    /** Also measure two server instances on the same database, the load spread over both (README: deployment). */
    instances?: boolean;
  }[] = [
    { id: 'list', title: 'GET /cars?limit=50', load: { path: '/cars?limit=50' }, ...small, target: 0.6 },
    {
      id: 'get',
      title: 'GET /cars/:id',
      load: { path: `/cars/${car.id}` },
      ...small,
      target: 0.6,
      ceiling: true,
      instances: true,
    },
    {
      id: 'create',
      title: 'POST /cars with an Idempotency-Key',
      load: { path: '/cars', method: 'POST', body: newCar, idempotent: true },
      ...writer,
      target: 0.5,
      ceiling: true,
      instances: true,
    },
  ];
  const figures: Figure[] = [];
  for (const { id, title, load, teamId, key, target, ceiling, instances } of loads) {
    const floor = await alone('bench/lib/floor-server.ts', [db.url, teamId], (origin) =>
      requestsPerSecond(origin, load, {}),
    );
    const value = await requestsPerSecond(server.baseUrl, load, { authorization: `Bearer ${key}` });
    const express = ceiling
      ? await alone('bench/lib/express-ceiling-server.ts', [db.url, teamId], (origin) =>
          requestsPerSecond(origin, load, {}),
        )
      : undefined;
    const twoInstances = instances
      ? await withSecondInstance(ctx, (origins) => requestsPerSecond(origins, load, { authorization: `Bearer ${key}` }))
      : undefined;
    ctx.log(
      `throughput ${title}: server ${Math.round(value)} req/s, floor ${Math.round(floor)} req/s` +
        (express ? `, Express alone ${Math.round(express)} req/s` : '') +
        (twoInstances ? `, two instances ${Math.round(twoInstances)} req/s` : ''),
    );
    figures.push(
      figure({
        id: `throughput-${id}`,
        title: `${title}, ${CONNECTIONS} connections`,
        unit: 'req/s',
        value,
        floor,
        comparison: '>=',
        target,
        floorIs: 'a bare node:http + pg server running the same SQL, no framework, auth, logging or rate limit',
        details: {
          ...(express
            ? {
                expressAloneReqPerSec: Math.round(express),
                expressAloneRatio: Math.round((express / floor) * 1000) / 1000,
              }
            : {}),
          ...(twoInstances
            ? {
                twoInstancesReqPerSec: Math.round(twoInstances),
                twoInstancesVsOne: Math.round((twoInstances / value) * 1000) / 1000,
              }
            : {}),
        },
      }),
    );
  }
  return figures;
}

/**
 * A second `vsf-server` on the same database beside the bench's own, for one measurement across both: on
 * this 2-core machine they share the cores with PostgreSQL and the load generator.
 */
async function withSecondInstance<T>(ctx: BenchContext, measure: (origins: string[]) => Promise<T>): Promise<T> {
  const second = await startReferenceServer(ctx.db.url);
  try {
    return await measure([ctx.server.baseUrl, second.baseUrl]);
  } finally {
    await second.close();
  }
}

/** Runs a one-purpose server (it prints `floor listening on <url>`) for one measurement. */
async function alone<T>(script: string, args: string[], measure: (origin: string) => Promise<T>): Promise<T> {
  const child = spawnTs(join(ROOT, script), args, {});
  try {
    const [, origin] = await waitForLine(child, /floor listening on (\S+)/);
    return await measure(origin!);
  } finally {
    await stop(child);
  }
}
