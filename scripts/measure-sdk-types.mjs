#!/usr/bin/env node
// What the packed `@vsf/sdk` costs an integrator, measured the way issue #33 found it:
//   - installed size: the tarball installed alone by npm in a fresh project (its dependencies from the
//     registry), all of node_modules (target: under 1 MB);
//   - strict type-checking: tsc with `skipLibCheck: false` on a five-line program using the SDK, minus the same
//     program without it (target: under 3 s more).
// `node scripts/measure-sdk-types.mjs <sdk tarball> [--check]`; scripts/check-packages.mjs runs it with --check
// on the tarball it packed, and `pnpm measure` prints it. Exits 1 with --check when a figure is over its target.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const TARGET_INSTALLED_BYTES = 1024 * 1024;
const TARGET_EXTRA_SECONDS = 3;
const root = new URL('..', import.meta.url).pathname;
const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');

const CONSUMER = `import { VsfClient, type V1Car } from '@vsf/sdk';
const client = new VsfClient({ apiKey: 'vsf_abcdefghijkl.secret' });
const car: V1Car = await client.cars.create({ year: 1967, make: 'Ford', model: 'Mustang' });
for await (const c of client.cars.list({ limit: 200 })) console.log(c.make, car.id);
export {};
`;
// The same program without the SDK: what TypeScript's own libraries cost on this machine.
const BASELINE = `const client = { cars: { create: async (b: { year: number }) => ({ id: String(b.year) }) } };
const car = await client.cars.create({ year: 1967 });
console.log(car.id);
for await (const c of [car]) console.log(c.id);
export {};
`;

function sizeOf(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

/** Seconds tsc takes on `file` (strict, skipLibCheck false, nodenext), failing on any diagnostic. */
function typecheckSeconds(dir, file) {
  const config = join(dir, `tsconfig.${file}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: {
        noEmit: true,
        strict: true,
        skipLibCheck: false,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        types: [],
      },
      files: [file],
    }),
  );
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [tsc, '-p', config], { cwd: dir, encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (run.status !== 0) throw new Error(`tsc ${file} failed:\n${run.stdout}${run.stderr}`);
  return seconds;
}

/** The figures of one packed SDK: installed bytes, and strict type-check seconds with and without it. */
export function measureSdkTypes(tarball) {
  const dir = mkdtempSync(join(tmpdir(), 'vsf-sdk-types-'));
  try {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    execFileSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error', resolve(tarball)],
      { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const installedBytes = sizeOf(join(dir, 'node_modules'));
    writeFileSync(join(dir, 'consumer.mts'), CONSUMER);
    writeFileSync(join(dir, 'baseline.mts'), BASELINE);
    // The faster of two runs each: the machine's other load only ever adds time.
    const best = (file) => Math.min(typecheckSeconds(dir, file), typecheckSeconds(dir, file));
    const baseline = best('baseline.mts');
    const withSdk = best('consumer.mts');
    return { installedBytes, baseline, withSdk, extra: withSdk - baseline };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function reportSdkTypes({ installedBytes, baseline, withSdk, extra }) {
  const problems = [];
  console.log(
    `  installed (the SDK and its dependencies): ${(installedBytes / 1024).toFixed(0)} KB  (target: under 1024 KB)`,
  );
  console.log(
    `  strict type-check of a five-line program: ${withSdk.toFixed(1)} s, ${extra.toFixed(1)} s more than without the SDK (target: under ${TARGET_EXTRA_SECONDS} s more)`,
  );
  if (installedBytes >= TARGET_INSTALLED_BYTES) problems.push(`installed size ${installedBytes} bytes is over 1 MB`);
  if (extra >= TARGET_EXTRA_SECONDS)
    problems.push(`type-checking the SDK adds ${extra.toFixed(1)} s (baseline ${baseline.toFixed(1)} s)`);
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const tarball = process.argv.slice(2).find((a) => !a.startsWith('--'));
  if (!tarball) {
    console.error('usage: node scripts/measure-sdk-types.mjs <@vsf/sdk tarball> [--check]');
    process.exit(2);
  }
  const problems = reportSdkTypes(measureSdkTypes(tarball));
  if (process.argv.includes('--check') && problems.length > 0) {
    console.error(`✖ SDK types:\n${problems.map((p) => `- ${p}`).join('\n')}`);
    process.exit(1);
  }
}
