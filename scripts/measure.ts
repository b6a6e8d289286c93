// `pnpm measure`: the architecture figures issue #16 set targets for, measured on this checkout.
// - lines of the contract's endpoint declarations (target: under 1 200);
// - what `import { VsfClient } from '@vsf/sdk'` costs a bundle (scripts/measure-sdk.mjs; under 20 KB gzipped);
// - the packed SDK installed alone (under 1 MB with its dependencies) and the extra time a strict
//   (`skipLibCheck: false`) type-check of a five-line program using it takes (under 3 s; scripts/measure-sdk-types.mjs);
// - the peak RSS of the built `vsf sync` with nothing to sync (under 60 MB): an incremental run against a
//   team whose mirror is already current, on a reference server started here on embedded PGlite (the
//   median of three such runs);
// - same-shape repetition under packages/, when the `duplicates` tool is on PATH: every pair under 40 (issue #33),
//   and how many of them have neither side generated.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ALL_SCOPES } from '@vsf/contract';
import { startTestServer } from '@vsf/server/testing';
import { bundle } from '../bench/lib/bundle.js';
import { measureSdkTypes } from './measure-sdk-types.mjs';

const run = promisify(execFile);
const root = new URL('..', import.meta.url).pathname;
const line = (label: string, value: string, target: string) =>
  console.log(`${label.padEnd(44)} ${value.padStart(12)}   (target: ${target})`);

// 1. Endpoint declarations.
const endpointsDir = join(root, 'packages/contract/src/endpoints');
const endpointLines = readdirSync(endpointsDir, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
  .reduce((sum, file) => sum + readFileSync(join(endpointsDir, file), 'utf8').split('\n').length, 0);
line('contract endpoint declarations (lines)', String(endpointLines), 'under 1 200');

// 2. The SDK in a bundle.
const sdk = execFileSync(process.execPath, [join(root, 'scripts/measure-sdk.mjs')], { encoding: 'utf8' });
const gzipped = /gzipped: ([\d.]+ KB)/.exec(sdk)?.[1] ?? '?';
line("import { VsfClient } from '@vsf/sdk' (gzip)", gzipped, 'under 20 KB, no zod');

// 2b. The packed SDK as an integrator installs and type-checks it.
{
  const packDir = mkdtempSync(join(tmpdir(), 'vsf-measure-sdk-'));
  try {
    const sdkDir = join(root, 'packages/sdk');
    execFileSync('npx', ['-y', 'pnpm@10.34.9', 'run', 'build'], { cwd: sdkDir, stdio: 'ignore' });
    execFileSync('npx', ['-y', 'pnpm@10.34.9', 'pack', '--pack-destination', packDir], {
      cwd: sdkDir,
      stdio: 'ignore',
    });
    const tarball = join(packDir, readdirSync(packDir).find((f) => f.endsWith('.tgz')) as string);
    const figures = measureSdkTypes(tarball);
    line('@vsf/sdk installed, with dependencies', `${(figures.installedBytes / 1024).toFixed(0)} KB`, 'under 1 024 KB');
    line(
      'strict type-check, five lines using the SDK',
      `+${figures.extra.toFixed(1)} s`,
      `under +3 s; ${figures.withSdk.toFixed(1)} s vs ${figures.baseline.toFixed(1)} s without`,
    );
  } finally {
    rmSync(packDir, { recursive: true, force: true });
  }
}

// 3. `vsf sync` with nothing to sync.
const scratch = mkdtempSync(join(tmpdir(), 'vsf-measure-'));
const server = await startTestServer({ useEnvDatabase: false });
try {
  const { key } = await server.createTeamWithKey(ALL_SCOPES);
  // Beside the benchmarks' builds, where the database drivers it leaves external resolve.
  const vsf = await bundle('packages/cli/src/bin/vsf.ts', join(root, 'bench/.build'));
  const mirror = join(scratch, 'mirror.db');
  // Prints the process's peak RSS (KiB) on stderr as it exits; nothing of the CLI changes. VmHWM, not
  // getrusage's maxRSS: Linux carries maxRSS over from the forking parent (this process, with a server in it).
  const reportRss = join(scratch, 'report-rss.mjs');
  writeFileSync(
    reportRss,
    [
      "import { readFileSync } from 'node:fs';",
      "const peak = () => /VmHWM:\\s*(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];",
      "process.on('exit', () => process.stderr.write('maxrss=' + peak() + '\\n'));",
    ].join('\n'),
  );
  // Asynchronously: the server runs in this process and must keep answering.
  const runSync = async () => {
    const result = await run(process.execPath, ['--import', reportRss, vsf, 'sync', '--to', mirror], {
      env: { ...process.env, VSF_API_KEY: key, VSF_BASE_URL: server.baseUrl },
    }).catch((error: { code?: number; stdout?: string; stderr?: string }) => {
      throw new Error(`vsf sync failed (${error.code}):\n${error.stdout}${error.stderr}`);
    });
    return Number(/maxrss=(\d+)/.exec(result.stderr)?.[1]) / 1024;
  };
  await runSync(); // the first, full run creates the mirror
  // The median of three runs with nothing to sync: one run's peak varies by a few hundred KB.
  const idle: number[] = [];
  for (let i = 0; i < 3; i++) idle.push(await runSync());
  const median = [...idle].sort((a, b) => a - b)[1] as number;
  const bare = await run(process.execPath, ['--import', reportRss, '-e', '']);
  const bareMb = Number(/maxrss=(\d+)/.exec(bare.stderr)?.[1]) / 1024;
  line(
    'vsf sync, nothing to sync (peak RSS)',
    `${median.toFixed(1)} MB`,
    `under 60 MB; median of ${idle.map((mb) => mb.toFixed(1)).join(', ')}; a bare node ${bareMb.toFixed(1)} MB`,
  );
} finally {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
}

// 4. Repetition under packages/: every pair (issue #33's measure, under 40), and those neither side of which is generated.
const duplicates = spawnSync('duplicates', ['--repo', 'packages', '--most', '200', '--seconds', '60'], {
  cwd: root,
  encoding: 'utf8',
});
const rows = (duplicates.stdout ?? '').split('\n').filter((row) => /^D\d+ /.test(row));
const handWritten = rows.filter((row) => !row.split(' ~ ').some((side) => side.includes('/generated/')));
const counted =
  duplicates.status === 0 && rows.length > 0 ? `${rows.length} (${handWritten.length} hand-written)` : 'n/a';
line('same-shape repetition under packages/ (pairs)', counted, 'under 40; needs the duplicates tool');
