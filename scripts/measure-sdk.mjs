#!/usr/bin/env node
// `pnpm measure:sdk`: what `import { VsfClient } from '@vsf/sdk'` costs an application that bundles it.
// esbuild bundles that one import (minified, for browsers, as a front end would ship it), then this prints
// the minified and gzipped sizes and the share of each package in the bundle. `--check` (run by `pnpm test`)
// exits 1 when the gzipped size is over the target or when zod, any @vsf/contract module or a package.json
// ends up in the bundle (the SDK depends on neither, and its version is generated, not read from its manifest),
// or when the SDK README's stated size is not this build's.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const TARGET_GZIP_BYTES = 20 * 1024;
const root = new URL('..', import.meta.url).pathname;
const check = process.argv.includes('--check');

const result = await build({
  stdin: { contents: "export { VsfClient } from '@vsf/sdk';", resolveDir: root, loader: 'js' },
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  write: false,
  metafile: true,
  logLevel: 'error',
});
const code = result.outputFiles[0].contents;
const gzipped = gzipSync(code, { level: 9 }).byteLength;

/** The package an input belongs to: `zod`, `ky`, `@vsf/contract`… (workspace packages by their folder). */
function packageOf(input) {
  const inNodeModules = input.match(/node_modules\/(?!\.pnpm)((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/);
  if (inNodeModules) return inNodeModules[1];
  const workspace = input.match(/(?:^|\/)packages\/([^/]+)\//);
  return workspace ? `@vsf/${workspace[1]}` : input;
}
const inputs = Object.entries(Object.values(result.metafile.outputs)[0].inputs);
const byPackage = new Map();
for (const [file, { bytesInOutput }] of inputs) {
  const name = packageOf(file);
  byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(`import { VsfClient } from '@vsf/sdk', bundled by esbuild:`);
console.log(
  `  minified: ${kb(code.byteLength)}  gzipped: ${kb(gzipped)}  (target: under ${kb(TARGET_GZIP_BYTES)} gzipped)`,
);
for (const [name, bytes] of [...byPackage].sort((a, b) => b[1] - a[1])) {
  console.log(`  ${name.padEnd(20)} ${kb(bytes).padStart(9)} minified`);
}

// Memory: the SDK bundled for Node as an installed package would load (every dependency, no TypeScript loader),
// imported by a fresh Node; its peak RSS beside that of a Node importing nothing.
const scratch = mkdtempSync(join(tmpdir(), 'vsf-measure-sdk-'));
try {
  const entry = join(scratch, 'sdk.mjs');
  await build({
    stdin: { contents: "export * from '@vsf/sdk';", resolveDir: root, loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outfile: entry,
    logLevel: 'error',
  });
  const rss = (script) =>
    Number(
      execFileSync(process.execPath, [
        '--input-type=module',
        '-e',
        `${script}; console.log(process.resourceUsage().maxRSS)`,
      ]),
    );
  const loaded = rss(`await import(${JSON.stringify(entry)})`);
  const bare = rss('');
  console.log(
    `  node importing it: ${(loaded / 1024).toFixed(1)} MB peak RSS (a bare node: ${(bare / 1024).toFixed(1)} MB)`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

if (check) {
  const problems = [];
  if (gzipped >= TARGET_GZIP_BYTES) problems.push(`${kb(gzipped)} gzipped is over the ${kb(TARGET_GZIP_BYTES)} target`);
  if (byPackage.has('zod'))
    problems.push(`zod is in the bundle (${kb(byPackage.get('zod'))}); the SDK must not load it`);
  for (const [file] of inputs) {
    if (packageOf(file) === '@vsf/contract')
      problems.push(`${file} is in the bundle; the SDK does not use the contract`);
    if (file.endsWith('package.json')) problems.push(`${file} is in the bundle; a manifest is not code`);
  }
  // The published README states the figure: it must be this build's, not an older one's.
  const readme = readFileSync(join(root, 'packages/sdk/README.md'), 'utf8');
  const stated = readme.match(/bundled by esbuild, gzipped \| ([\d.]+) KB \|/)?.[1];
  if (stated === undefined)
    problems.push("packages/sdk/README.md states no gzipped bundle size ('bundled by esbuild, gzipped | … KB |')");
  else if (Math.abs(Number(stated) * 1024 - gzipped) > 0.3 * 1024)
    problems.push(`packages/sdk/README.md says ${stated} KB gzipped; the bundle is ${kb(gzipped)}: update the README`);
  if (problems.length > 0) {
    console.error(`✖ SDK size check:\n${problems.map((p) => `- ${p}`).join('\n')}`);
    process.exit(1);
  }
  console.log('✔ SDK bundle within target, without zod, the contract or a package.json');
}
