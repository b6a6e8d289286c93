import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createKey, createTeam } from './lib/admin-keys.js';
import type { BenchContext } from './lib/bench-context.js';
import { outputOf, ROOT, spawnTs, waitForLine } from './lib/child-process.js';
import { type Figure, figure, median } from './lib/figure.js';

/** Waiting `GET /events` requests held open at once, as 1 000 idle followers would. */
const POLLS = 1_000;
/** A key holds at most this many waits per instance (MAX_EVENTS_WAITS_PER_KEY): 200 keys. */
const WAITS_PER_KEY = 5;
/** What `client.events.follow` (and `vsf sync --follow`) asks for: each poll answers empty and polls again. */
const WAIT_SECONDS = 25;
/** A whole rate-limit window (and two re-polls of every follower): what a key costs once a minute counts. */
const WINDOW_MS = 60_000;
/** Longer than PostgreSQL's PGSTAT_IDLE_INTERVAL (10 s): counts of work done before have been reported by then. */
const STATS_FLUSH_MS = 11_000;
const CARS_CONNECTIONS = 8;
const CARS_SECONDS = 5;
/**
 * The p99 of each side is the median of this many loads of CARS_SECONDS: the p99 of one 8-connection load of
 * a few seconds moved by up to 2× between back-to-back runs on a quiet machine (3-second windows with the
 * polls running: 18 to 50 ms; without them, 19 to 30), more than the polls move it.
 */
const CARS_WINDOWS = 4;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Tables whose writes tell where the queries go (migration 020's counters, keys' last use, the feed's heads). */
const TABLES = ['rate_limits', 'api_keys', 'team_event_heads'];

/**
 * What 1 000 idle long polls cost everyone else: the statements per second the database runs while they wait
 * (over a whole minute, beyond the idle server's own: the listener's heartbeat, the dispatcher's poll), and
 * another team's `GET /cars` p99 while they wait, against the same load without them before and after.
 * Statements are counted by PostgreSQL (`pg_stat_database`: each of these is a transaction of its own), so
 * everything counts, the rate-limit store and the keys' last-use stamps too. PostgreSQL holds back the count of
 * a connection whose statements touch no table until one does: the listener's heartbeat used to be such a
 * statement (`select 1`), uncounted for minutes, then all at once in whichever window, now or then (±5/s on the
 * figure); it reads a catalog row now (change-listener.ts's HEARTBEAT_SQL), so it is counted as it runs.
 */
export async function idleLongPolls(ctx: BenchContext): Promise<Figure[]> {
  const { server, db, small } = ctx;
  const carsP99 = async () => {
    const result = await autocannon({
      url: `${server.baseUrl}/cars?limit=50`,
      connections: CARS_CONNECTIONS,
      duration: CARS_SECONDS,
      headers: { authorization: `Bearer ${small.key}` },
    });
    const failed = result.non2xx + result.errors + result.timeouts;
    if (failed > 0) throw new Error(`GET /cars: ${failed} failed requests`);
    return result.latency.p99;
  };
  /** The median p99 of CARS_WINDOWS loads in a row, and each of them. */
  const carsP99s = async () => {
    const windows: number[] = [];
    for (let n = 0; n < CARS_WINDOWS; n++) windows.push(await carsP99());
    return { p99: median(windows), windows };
  };
  const counters = async () => {
    const total = await db.knex.raw(
      'select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()',
    );
    const tables = await db.knex.raw(
      'select relname, n_tup_ins + n_tup_upd + n_tup_del as n from pg_stat_user_tables where relname = any(?)',
      [TABLES],
    );
    const byTable = Object.fromEntries(
      (tables.rows as { relname: string; n: string }[]).map((row) => [row.relname, Number(row.n)]),
    );
    const vacuums = await db.knex.raw(
      'select coalesce(sum(autovacuum_count + autoanalyze_count), 0) as n from pg_stat_user_tables',
    );
    return { at: performance.now(), total: Number(total.rows[0].n), byTable, autovacuums: Number(vacuums.rows[0].n) };
  };
  /** Statements per second over `ms`, and rows written per second to each of TABLES. */
  const rate = async (ms: number) => {
    const before = await counters();
    await sleep(ms);
    const after = await counters();
    const seconds = (after.at - before.at) / 1000;
    const perTable = Object.fromEntries(
      TABLES.map((table) => [table, ((after.byTable[table] ?? 0) - (before.byTable[table] ?? 0)) / seconds]),
    );
    return {
      total: (after.total - before.total) / seconds,
      perTable,
      autovacuums: after.autovacuums - before.autovacuums,
    };
  };

  await carsP99(); // warm-up
  const carsBefore = await carsP99s();
  // Autovacuum's own transactions count in pg_stat_database too, and the seeding leaves it work on many tables:
  // in a run with log_statement=all the idle window counted ~220 transactions more than any client sent (and
  // ~5/s above the polling one), so the floor read high and hid the polls' cost. Done here by hand, before
  // either window; what the polls' own writes give it to do later counts as theirs (autovacuumRuns*).
  await db.knex.raw('vacuum analyze');
  // A backend reports its counts when idle, up to 10 s late (PGSTAT_IDLE_INTERVAL): the vacuum's transactions
  // (one or more per table) and the GET /cars load's would otherwise land in the idle window, raising its floor.
  await sleep(STATS_FLUSH_MS);
  const idle = await rate(WINDOW_MS);
  ctx.log(`idle server: ${idle.total.toFixed(1)} statements/s`);

  const team = await createTeam(server, 'Bench idle followers');
  const keys: string[] = [];
  for (let n = 0; n < POLLS / WAITS_PER_KEY; n++) keys.push(await createKey(server, team, ['read:cars']));
  const head = (
    (await (
      await fetch(`${server.baseUrl}/events?limit=0`, { headers: { authorization: `Bearer ${keys[0]}` } })
    ).json()) as { nextCursor: number }
  ).nextCursor;
  const keysFile = join(ctx.tmp, 'follower-keys.txt');
  writeFileSync(keysFile, Array.from({ length: POLLS }, (_, n) => keys[n % keys.length]).join('\n'));
  const followers = spawnTs(
    join(ROOT, 'bench/lib/idle-followers.ts'),
    [server.baseUrl, String(head), String(WAIT_SECONDS), keysFile],
    {},
    'pipe',
  );
  const output = outputOf(followers);
  let polling: Awaited<ReturnType<typeof rate>>;
  let carsDuring: Awaited<ReturnType<typeof carsP99s>>;
  try {
    await waitForLine(followers, /following (\d+)/);
    // Every follower has answered once and polled again: the steady state, not the first requests.
    await sleep(WAIT_SECONDS * 1000 + 5_000);
    polling = await rate(WINDOW_MS);
    // Warmed up as the windows without polls are: the probe's first load after minutes without its requests
    // measured 61 ms at p99 with no polls running against 31 to 45 ms warm, a cost of its own, not the polls'.
    await carsP99();
    carsDuring = await carsP99s();
  } finally {
    followers.kill('SIGTERM');
  }
  const { code, stdout, stderr } = await output;
  if (code !== 0) throw new Error(`the followers exited ${code}:\n${stderr}`);
  const { answered, failed, reset, firstFailure } = JSON.parse(stdout) as {
    answered: number;
    failed: number;
    /** Polls whose kept-alive connection the server closed as the client reused it: reported, not failed. */
    reset: number;
    firstFailure: string;
  };
  if (failed > 0) throw new Error(`${failed} long polls failed (answered ${answered}), the first: ${firstFailure}`);
  const carsAfter = await carsP99s();
  const extra = Math.max(0, polling.total - idle.total);
  const carsWithout = (carsBefore.p99 + carsAfter.p99) / 2;
  ctx.log(
    `${POLLS} idle long polls: ${polling.total.toFixed(1)} statements/s (idle ${idle.total.toFixed(1)}), ` +
      `GET /cars p99 ${carsDuring.p99} ms (without ${carsBefore.p99} / ${carsAfter.p99} ms)`,
  );
  const perSecond = (rates: Record<string, number>, prefix: string) =>
    Object.fromEntries(Object.entries(rates).map(([table, n]) => [`${prefix}${table}PerS`, Math.round(n * 100) / 100]));
  return [
    figure({
      id: 'idle-long-polls-queries',
      title: `Database statements per second from ${POLLS} idle long polls (${POLLS / WAITS_PER_KEY} keys, wait=${WAIT_SECONDS})`,
      unit: '/s',
      value: extra,
      floor: idle.total,
      comparison: '<=',
      target: 5,
      targetOn: 'value',
      floorIs:
        'the idle server’s own statements per second (listener heartbeat, dispatcher poll), measured before; the value is what the polls add',
      details: {
        withPollsPerS: Math.round(polling.total * 100) / 100,
        idlePerS: Math.round(idle.total * 100) / 100,
        ...perSecond(polling.perTable, 'rowsWritten_'),
        autovacuumRunsIdle: idle.autovacuums,
        autovacuumRunsPolling: polling.autovacuums,
        pollsAnswered: answered,
        pollsReset: reset,
        windowS: WINDOW_MS / 1000,
      },
    }),
    figure({
      id: 'idle-long-polls-cars-p99',
      title: `Another team's GET /cars?limit=50 p99 (${CARS_CONNECTIONS} connections) during ${POLLS} idle long polls`,
      unit: 'ms',
      value: carsDuring.p99,
      floor: carsWithout,
      comparison: '<=',
      target: 1.2,
      floorIs: `the same load without the long polls, before and after (each the median p99 of ${CARS_WINDOWS} loads of ${CARS_SECONDS} s, as the value is)`,
      details: {
        withoutBeforeMs: carsBefore.windows.join(', '),
        withoutAfterMs: carsAfter.windows.join(', '),
        duringMs: carsDuring.windows.join(', '),
      },
    }),
  ];
}
