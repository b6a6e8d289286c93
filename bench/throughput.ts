import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { BenchContext } from './lib/bench-context.js';
import { ROOT, spawnTs, stop, waitForLine } from './lib/child-process.js';
import { type Figure, figure, median } from './lib/figure.js';
import { startReferenceServer } from './lib/reference-server.js';

const CONNECTIONS = 32;
/** Each server is measured this many times, in turn with the others, and its median kept. */
const ROUNDS = 3;
const ROUND_SECONDS = 4;
const WARMUP_SECONDS = 2;

export interface Load {
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
  /** Each request carries a new `Idempotency-Key`, as every SDK and CLI create does. */
  idempotent?: boolean;
}

/** With several origins (instances of one server), autocannon spreads the connections over them in turn. */
export async function requestsPerSecond(
  origin: string | string[],
  load: Load,
  headers: Record<string, string>,
  duration: number,
): Promise<number> {
  const urls = (Array.isArray(origin) ? origin : [origin]).map((o) => `${o}${load.path}`);
  const result = await autocannon({
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
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0)
    throw new Error(`${load.method ?? 'GET'} ${load.path}: ${failed} failed requests (non-2xx, errors or timeouts)`);
  return result.requests.average;
}

type ContenderName = string;

/** One thing measured under a load: where it listens and what the load sends it (its own, when it speaks another protocol). */
export interface Contender {
  origin: string | string[];
  headers: Record<string, string>;
  load?: Load;
}

/**
 * Requests/s of each contender under the same load: all warmed up, then measured in turn for `ROUNDS`
 * rounds, each keeping its median. Measured one after the other instead, a burst of other work on the
 * machine (or the table growing under the writes) lands on one side of a ratio only.
 */
export async function interleaved(load: Load, contenders: Partial<Record<ContenderName, Contender>>) {
  const entries = Object.entries(contenders) as [ContenderName, Contender][];
  for (const [, c] of entries) await requestsPerSecond(c.origin, c.load ?? load, c.headers, WARMUP_SECONDS);
  const samples: Partial<Record<ContenderName, number[]>> = {};
  for (const [name] of entries) samples[name] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, c] of entries) {
      samples[name]?.push(await requestsPerSecond(c.origin, c.load ?? load, c.headers, ROUND_SECONDS));
    }
  }
  return samples;
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
    /**
     * Also measure Express 5 alone on the floor's SQL (express-ceiling-server.ts), the framework's own cost, and
     * hold the server to this share of it (issue #34: the request path against its own stack).
     */
    ceiling?: number;
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
      ceiling: 0.85,
      instances: true,
    },
    {
      id: 'create',
      title: 'POST /cars with an Idempotency-Key',
      load: { path: '/cars', method: 'POST', body: newCar, idempotent: true },
      ...writer,
      target: 0.5,
      ceiling: 0.8,
      instances: true,
    },
  ];
  const figures: Figure[] = [];
  for (const { id, title, load, teamId, key, target, ceiling, instances } of loads) {
    const auth = { authorization: `Bearer ${key}` };
    const samples = await withServers(ctx, { teamId, ceiling: ceiling !== undefined, instances }, (servers) =>
      interleaved(load, {
        floor: { origin: servers.floor, headers: {} },
        server: { origin: server.baseUrl, headers: auth },
        ...(servers.express ? { express: { origin: servers.express, headers: {} } } : {}),
        // What the idempotency key's second round trip costs the framework alone (the create's own cause).
        ...(servers.express && load.idempotent
          ? { expressIdempotent: { origin: servers.express, headers: {}, load: { ...load, path: '/idempotent/cars' } } }
          : {}),
        ...(servers.second ? { twoInstances: { origin: [server.baseUrl, servers.second], headers: auth } } : {}),
      }),
    );
    const serverRounds = samples.server ?? [];
    const floorRounds = samples.floor ?? [];
    const value = median(serverRounds);
    const floor = median(floorRounds);
    const express = samples.express ? median(samples.express) : undefined;
    const twoInstances = samples.twoInstances ? median(samples.twoInstances) : undefined;
    const expressIdempotent = samples.expressIdempotent ? median(samples.expressIdempotent) : undefined;
    ctx.log(
      `throughput ${title}: server ${Math.round(value)} req/s, floor ${Math.round(floor)} req/s` +
        (express ? `, Express alone ${Math.round(express)} req/s` : '') +
        (expressIdempotent ? `, with the key's round trips ${Math.round(expressIdempotent)} req/s` : '') +
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
          serverRounds: serverRounds.map(Math.round).join(', '),
          floorRounds: floorRounds.map(Math.round).join(', '),
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
    if (express && ceiling !== undefined) {
      figures.push(
        figure({
          id: `throughput-${id}-vs-express`,
          title: `${title} vs Express alone, ${CONNECTIONS} connections`,
          unit: 'req/s',
          value,
          floor: express,
          comparison: '>=',
          target: ceiling,
          floorIs:
            'Express 5 alone serving the floor’s SQL and body from one route with res.json (no auth, validation, logging or rate limit), measured in the same rounds',
          details: {
            expressRounds: (samples.express ?? []).map(Math.round).join(', '),
            ...(expressIdempotent
              ? {
                  expressIdempotentRounds: (samples.expressIdempotent ?? []).map(Math.round).join(', '),
                  expressIdempotentVsExpress: Math.round((expressIdempotent / express) * 1000) / 1000,
                  serverVsExpressIdempotent: Math.round((value / expressIdempotent) * 1000) / 1000,
                }
              : {}),
          },
        }),
      );
    }
  }
  return figures;
}

interface BesideServers {
  floor: string;
  express?: string;
  /** A second `vsf-server` on the same database beside the bench's own. */
  second?: string;
}

/**
 * Starts what one load compares the reference server with, for as long as `measure` runs: the bare floor,
 * Express alone (`ceiling`) and a second instance (`instances`; on this 2-core machine the two share the
 * cores with PostgreSQL and the load generator). Idle, each costs the others nothing.
 */
async function withServers<T>(
  ctx: BenchContext,
  options: { teamId: string; ceiling?: boolean | undefined; instances?: boolean | undefined },
  measure: (servers: BesideServers) => Promise<T>,
): Promise<T> {
  const stops: (() => Promise<void>)[] = [];
  try {
    const floor = await oneRoute('bench/lib/floor-server.ts', [ctx.db.url, options.teamId], stops);
    const express = options.ceiling
      ? await oneRoute('bench/lib/express-ceiling-server.ts', [ctx.db.url, options.teamId], stops)
      : undefined;
    let second: string | undefined;
    if (options.instances) {
      const instance = await startReferenceServer(ctx.db.url);
      stops.push(() => instance.close());
      second = instance.baseUrl;
    }
    return await measure({ floor, ...(express ? { express } : {}), ...(second ? { second } : {}) });
  } finally {
    for (const stopOne of stops) await stopOne();
  }
}

/** Starts a one-purpose server (it prints `floor listening on <url>`); `stops` gets how to stop it. */
async function oneRoute(script: string, args: string[], stops: (() => Promise<void>)[]): Promise<string> {
  const child = spawnTs(join(ROOT, script), args, {});
  stops.push(() => stop(child));
  const [, origin] = await waitForLine(child, /floor listening on (\S+)/);
  return origin!;
}
