#!/usr/bin/env node
// `node scripts/check-packages.mjs`: builds every published @vsf package and checks what npm would get.
// For each package that is not private: tsup builds ESM + CJS + types; `pnpm pack` makes the tarball (pnpm,
// not npm, because only pnpm applies `publishConfig.exports` and replaces `workspace:` versions — exactly
// what `pnpm publish` uploads); then the tarball is checked:
//   - contents: README.md, LICENSE, package.json and every file the manifest points at (exports, main,
//     module, types, bin); nothing from src/, test/, fixtures or *.test/*.spec files, no configs;
//   - the packed manifest: exports point into dist/, no `workspace:` dependency is left;
//   - bins: `#!/usr/bin/env node` on built JavaScript, executable;
//   - publint (`--strict`: warnings fail) and @arethetypeswrong/cli (`--profile node16`: the node10
//     resolver cannot see subpath exports, and every package needs Node >= 20.19 anyway).
// Then the tarballs are installed together into a fresh project outside the workspace, where a strict
// TypeScript program importing every export typechecks and runs as ESM and CommonJS on Node, Bun and Deno
// (scripts/smoke-installed-packages.mjs). Last, `import { VsfClient } from '@vsf/sdk'` bundled by esbuild must
// stay under its size target without zod or contract schemas (scripts/measure-sdk.mjs --check), and the packed
// SDK installed alone must stay under 1 MB and cheap to type-check strictly (scripts/measure-sdk-types.mjs).
// First of all, the workspace's packages must depend downwards only (scripts/workspace-graph.mjs).
// `--skip-build` reuses existing dist/ folders. Exits 1 listing every problem.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureSdkTypes, reportSdkTypes } from './measure-sdk-types.mjs';
import { smokeInstalledPackages } from './smoke-installed-packages.mjs';
import { readWorkspace, workspaceGraphProblems } from './workspace-graph.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const skipBuild = process.argv.includes('--skip-build');

/** pnpm as the caller ran it (`pnpm test` sets npm_execpath), else the pinned version through npx. */
const pnpm = process.env.npm_execpath?.includes('pnpm')
  ? [process.execPath, [process.env.npm_execpath]]
  : ['npx', ['-y', 'pnpm@10.34.9']];

function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, env: { ...process.env, FORCE_COLOR: '0', ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const binOf = (pkg, bin) => {
  // Root devDependencies are linked in the root node_modules (some do not export ./package.json).
  const manifestPath = join(root, 'node_modules', pkg, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const relative = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[bin];
  return join(dirname(manifestPath), relative);
};
const publintBin = binOf('publint', 'publint');
const attwBin = binOf('@arethetypeswrong/cli', 'attw');

const publishable = readdirSync(join(root, 'packages'))
  .map((name) => join(root, 'packages', name))
  .filter((dir) => existsSync(join(dir, 'package.json')))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
  .filter(({ manifest }) => !manifest.private);

const problems = [];
const fail = (name, message) => problems.push(`${name}: ${message}`);
for (const problem of workspaceGraphProblems(readWorkspace(root))) fail('workspace', problem);

/** Every file path a manifest makes reachable: exports (all conditions), main, module, types, bin. */
function manifestTargets(manifest) {
  const targets = new Set();
  const walk = (value) => {
    if (typeof value === 'string') targets.add(value.replace(/^\.\//, ''));
    else if (value && typeof value === 'object') for (const v of Object.values(value)) walk(v);
  };
  walk(manifest.exports);
  for (const field of ['main', 'module', 'types']) walk(manifest[field]);
  walk(manifest.bin);
  return [...targets];
}

const FORBIDDEN = [
  [/^src\//, 'source files'],
  [/(^|\/)(test|tests|__tests__|fixtures?|__fixtures__)\//, 'tests or fixtures'],
  [/\.(test|spec)\.[cm]?[jt]sx?$/, 'test files'],
  [
    /(^|\/)(tsconfig[^/]*\.json|tsup\.config\.[cm]?[jt]s|vitest\.config\.[cm]?[jt]s|redocly\.yaml)$/,
    'build or test config',
  ],
  [/(^|\/)node_modules\//, 'node_modules'],
];

async function buildAll() {
  // Two builds at a time: the declaration bundler is the slow part and there are two cores.
  const queue = [...publishable];
  const worker = async () => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      const { manifest, dir } = item;
      const started = Date.now();
      const result = await run(pnpm[0], [...pnpm[1], 'run', 'build'], { cwd: dir });
      if (result.code !== 0) fail(manifest.name, `build failed:\n${result.stdout}\n${result.stderr}`);
      else console.log(`  built ${manifest.name} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
  };
  await Promise.all([worker(), worker()]);
}

async function checkPackage({ dir, manifest }, scratch) {
  const name = manifest.name;
  const packed = await run(pnpm[0], [...pnpm[1], 'pack', '--pack-destination', scratch, '--json'], { cwd: dir });
  if (packed.code !== 0) return fail(name, `pnpm pack failed: ${packed.stderr}`);
  const report = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('{')));
  const tarball = report.filename;
  const files = new Set(report.files.map((f) => f.path));

  for (const required of ['package.json', 'README.md', 'LICENSE']) {
    if (!files.has(required)) fail(name, `${required} is not in the package`);
  }
  for (const file of files) {
    for (const [pattern, what] of FORBIDDEN) if (pattern.test(file)) fail(name, `ships ${what}: ${file}`);
  }

  const unpacked = join(scratch, name.replace('/', '-'));
  const extract = await run('tar', ['-xzf', tarball, '-C', scratch], {});
  if (extract.code !== 0) return fail(name, `cannot unpack ${tarball}: ${extract.stderr}`);
  rmSync(unpacked, { recursive: true, force: true });
  renameSync(join(scratch, 'package'), unpacked);
  const packedManifest = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8'));

  for (const target of manifestTargets(packedManifest)) {
    if (!files.has(target)) fail(name, `package.json points at ${target}, which is not in the package`);
    else if (!target.startsWith('dist/') && target !== 'package.json' && !target.endsWith('.json')) {
      fail(name, `package.json points outside dist/: ${target}`);
    }
  }
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [dep, range] of Object.entries(packedManifest[field] ?? {})) {
      if (String(range).startsWith('workspace:')) fail(name, `${field}.${dep} is still ${range}`);
    }
  }
  const formats = manifestTargets(packedManifest);
  if (!formats.some((t) => t.endsWith('.cjs'))) fail(name, 'no CommonJS build in exports');
  if (!formats.some((t) => t.endsWith('.js') && t.startsWith('dist/'))) fail(name, 'no ES module build in exports');
  if (!formats.some((t) => t.endsWith('.d.ts')) || !formats.some((t) => t.endsWith('.d.cts'))) {
    fail(name, 'types missing for ESM (.d.ts) or CommonJS (.d.cts)');
  }

  const bins = typeof packedManifest.bin === 'string' ? { [name]: packedManifest.bin } : (packedManifest.bin ?? {});
  for (const [bin, target] of Object.entries(bins)) {
    const file = join(unpacked, target);
    if (!existsSync(file)) continue; // reported above as a missing target
    if (!/\.[cm]?js$/.test(target)) fail(name, `bin ${bin} is not built JavaScript: ${target}`);
    const firstLine = readFileSync(file, 'utf8').split('\n', 1)[0];
    if (firstLine !== '#!/usr/bin/env node')
      fail(name, `bin ${bin} starts with "${firstLine}", not #!/usr/bin/env node`);
    if ((statSync(file).mode & 0o111) === 0) fail(name, `bin ${bin} is not executable`);
  }

  const [publint, attw] = await Promise.all([
    run(process.execPath, [publintBin, 'run', tarball, '--strict', '--level', 'warning'], {}),
    run(process.execPath, [attwBin, tarball, '--profile', 'node16', '--format', 'ascii', '--no-emoji'], {}),
  ]);
  if (publint.code !== 0 || /Errors?:|Warnings?:/.test(publint.stdout)) {
    fail(name, `publint:\n${publint.stdout}${publint.stderr}`);
  }
  if (attw.code !== 0) fail(name, `@arethetypeswrong/cli:\n${attw.stdout}${attw.stderr}`);
  console.log(`  checked ${name}: ${files.size} files, ${Object.keys(bins).length} bin(s)`);
  return tarball;
}

const started = Date.now();
console.log(`Packages: ${publishable.map((p) => p.manifest.name).join(', ')}`);
if (!skipBuild) await buildAll();
const scratch = mkdtempSync(join(tmpdir(), 'vsf-pack-'));
try {
  const tarballs = [];
  if (problems.length === 0) for (const pkg of publishable) tarballs.push(await checkPackage(pkg, scratch));
  if (problems.length === 0) {
    for (const problem of await smokeInstalledPackages(tarballs)) fail('installed packages', problem);
  }
  // The SDK as an integrator installs it alone: under 1 MB with its dependencies, and a strict type-check of a
  // small program using it under 3 s more than without it (issue #33).
  const sdkTarball = tarballs[publishable.findIndex(({ manifest }) => manifest.name === '@vsf/sdk')];
  if (problems.length === 0 && sdkTarball) {
    for (const problem of reportSdkTypes(measureSdkTypes(sdkTarball))) fail('@vsf/sdk', problem);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
if (problems.length === 0) {
  const measured = await run(process.execPath, [join(root, 'scripts', 'measure-sdk.mjs'), '--check'], {});
  process.stdout.write(measured.stdout.replace(/^/gm, '  '));
  if (measured.code !== 0) fail('@vsf/sdk', `bundle size:\n${measured.stderr}`);
}
const seconds = ((Date.now() - started) / 1000).toFixed(0);
if (problems.length > 0) {
  console.error(`\n✖ ${problems.length} package problem(s):\n${problems.map((p) => `- ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(
  `✔ ${publishable.length} packages build ESM + CJS + types, pass the pack checks, and typecheck and load once installed (${seconds} s)`,
);
