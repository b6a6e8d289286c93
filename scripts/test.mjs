#!/usr/bin/env node
// `pnpm test`: static checks (lint, typecheck, the published packages' build and pack checks), then
// every vitest suite on embedded PGlite, then the database-backed suites again on real PostgreSQL
// (TEST_DATABASE_URL, default the local server). Extra arguments go to vitest, e.g.
// `pnpm test --project server`.
// `pnpm test:stress` (`--stress`): the reliability suites' long variants (VSF_STRESS=1) on PostgreSQL.
// `pnpm test --and-stress` (CI): both, without running the stress suites' short variants on PostgreSQL
// first, since their long variants run there right after.
import { spawnSync } from 'node:child_process';
import { Socket } from 'node:net';
import { availableParallelism } from 'node:os';

const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/test';
const DATABASE_PROJECTS = ['server'];
/**
 * Suites of the tests package whose server side must hold on both engines too: the mirrors, the offline
 * queue's exactly-once delivery (after a cut or a Ctrl-C), the admin page.
 */
const DATABASE_TEST_SUITES = [
  'tests/sync/',
  'tests/cli/offline-queue.test.ts',
  'tests/cli/interrupt.test.ts',
  'tests/cli/sync-follow.test.ts',
  // Their PostgreSQL mirrors are written only when TEST_DATABASE_URL names a server.
  'tests/cli/sync-garage-log.test.ts',
  'tests/cli/sync-exit-codes.test.ts',
  'tests/browser/admin-page.test.ts',
  // The mock's conformance: the reference server's answers on PostgreSQL are the ones the mock must give.
  'tests/conformance/',
];
const stress = process.argv.includes('--stress');
const andStress = process.argv.includes('--and-stress');
const args = process.argv.slice(2).filter((a) => a !== '--stress' && a !== '--and-stress');
/** The suites with a longer variant under VSF_STRESS (see the README's reliability table). */
const STRESS_SUITES = [
  'packages/server/test/fuzz-contract.test.ts',
  'packages/server/test/multipart-upload.test.ts',
  'packages/server/test/tenant-isolation-load.test.ts',
  'packages/server/test/keys-under-load.test.ts',
  'packages/server/test/load.test.ts',
  'packages/server/test/graceful-shutdown.test.ts',
  'packages/server/test/parking-concurrency.test.ts',
  'tests/sync/chaos-sync.test.ts',
  'tests/cli/sync-crash-resume.test.ts',
  'tests/cli/sync-follow.test.ts',
];
const isCi = process.env.CI === 'true' || process.env.CI === '1';

function run(label, command, commandArgs, env = {}) {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, commandArgs, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) {
    console.error(`✖ ${label} failed`);
    process.exit(result.status ?? 1);
  }
}

function reachable(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.setTimeout(2000);
    socket.once('connect', () => resolve(socket.destroy() || true));
    socket.once('timeout', () => resolve(socket.destroy() && false));
    socket.once('error', () => resolve(false));
    socket.connect(Number(port || 5432), hostname);
  });
}

const vitest = ['exec', 'vitest', 'run'];
const pnpm = process.env.npm_execpath?.includes('pnpm') ? [process.execPath, [process.env.npm_execpath]] : ['pnpm', []];
const exec = (label, extra, env) => run(label, pnpm[0], [...pnpm[1], ...extra], env);
const databaseUrl = process.env.TEST_DATABASE_URL || DEFAULT_PG;
const shownDatabaseUrl = databaseUrl.replace(/\/\/[^@]*@/, '//***@');

async function runStress() {
  if (!(await reachable(databaseUrl))) {
    console.error(
      `✖ PostgreSQL is not reachable at ${databaseUrl}; the stress suites run on it (set TEST_DATABASE_URL)`,
    );
    process.exit(1);
  }
  exec(`stress suites on PostgreSQL (${shownDatabaseUrl})`, [...vitest, ...STRESS_SUITES, ...args], {
    TEST_DATABASE_URL: databaseUrl,
    VSF_STRESS: '1',
  });
}

if (stress) {
  await runStress();
  console.log('\n✔ stress suites passed');
  process.exit(0);
}

if (args.length === 0) {
  exec('lint (biome)', ['exec', 'biome', 'check', '.']);
  exec('typecheck (tsc, every package)', ['-r', 'typecheck']);
  run('package checks (build ESM + CJS + types, pack, publint, attw)', process.execPath, [
    new URL('./check-packages.mjs', import.meta.url).pathname,
  ]);
  exec('typecheck (tsc, benchmarks; `pnpm bench` runs them)', ['exec', 'tsc', '-p', 'bench']);
}

const { TEST_DATABASE_URL: _ignored, ...pgliteEnv } = process.env;
// Two files at a time even on two cores (vitest's default there is one): the suites wait on servers,
// CLIs and sockets they start more than they compute, and on PGlite each suite's database is its own.
// The PostgreSQL passes share one database, where a suite may change the schema for a moment
// (marketing-engagement drops a trigger), so they keep vitest's default.
const workers = `--maxWorkers=${Math.max(2, availableParallelism() - 1)}`;
console.log('\n▶ tests on embedded PGlite');
const pglite = spawnSync(pnpm[0], [...pnpm[1], ...vitest, workers, ...args], { stdio: 'inherit', env: pgliteEnv });
if (pglite.status !== 0) process.exit(pglite.status ?? 1);

if (await reachable(databaseUrl)) {
  const projects = args.length > 0 ? args : DATABASE_PROJECTS.flatMap((p) => ['--project', p]);
  const leftToStress = andStress ? STRESS_SUITES.flatMap((s) => ['--exclude', `**/${s.split('/').at(-1)}`]) : [];
  exec(`tests on PostgreSQL (${shownDatabaseUrl})`, [...vitest, ...projects, ...leftToStress], {
    TEST_DATABASE_URL: databaseUrl,
  });
  if (args.length === 0)
    exec(
      `cross-package suites on PostgreSQL (${shownDatabaseUrl})`,
      [...vitest, '--project', 'tests', ...DATABASE_TEST_SUITES, ...leftToStress],
      {
        TEST_DATABASE_URL: databaseUrl,
      },
    );
  if (andStress) await runStress();
} else if (isCi || process.env.TEST_DATABASE_URL) {
  console.error(`✖ PostgreSQL is not reachable at ${databaseUrl}; the PostgreSQL pass cannot run`);
  process.exit(1);
} else {
  console.warn(`\n! PostgreSQL not reachable at ${databaseUrl}: skipped the PostgreSQL pass (set TEST_DATABASE_URL).`);
}
console.log('\n✔ all checks passed');
