#!/usr/bin/env node
// The packed packages as a user gets them. `scripts/check-packages.mjs` calls this with the tarballs it made
// (`pnpm pack`, so publishConfig applies); `node scripts/smoke-installed-packages.mjs <tarball>…` runs it alone.
// In a fresh project outside the workspace, npm installs the tarballs (third-party dependencies from the
// registry). A smoke program is generated from the packages' own declarations: it imports every entry point
// (`exports`, minus JSON files) and names every export that is a value. Then
//   - tsc checks it strict, with `skipLibCheck: false` and `module`/`moduleResolution` `nodenext`, as an ES
//     module (.mts) and as CommonJS (.cts): every published .d.ts and what it references must typecheck;
//   - the emitted ESM and CommonJS programs run on Node, Bun and Deno, and each asserts that every value the
//     declarations export exists at run time (a type exported as a value would typecheck and then crash).
// Install scripts are skipped: the smoke program only loads modules, and better-sqlite3's would compile it
// from source for two minutes (knex loads the SQLite driver only when a mirror opens).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const requireFromRoot = createRequire(join(root, 'package.json'));
const ts = requireFromRoot('typescript');

/**
 * A smoke program that does not exit leaves a handle open at import (an interval, a socket, a broadcast
 * channel): an application importing the package would not exit either. Killed after this long, and said so.
 */
const EXIT_WITHIN_MS = 5 * 60_000;

function run(command, args, options = {}) {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { ...options, env: { ...process.env, FORCE_COLOR: '0', ...options.env } });
    const timer = setTimeout(() => {
      output += `\nstill running after ${EXIT_WITHIN_MS / 60_000} min: something keeps the process from exiting`;
      child.kill('SIGKILL');
    }, EXIT_WITHIN_MS);
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', (error) => resolvePromise({ code: -1, output: `${output}${error.message}` }));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, output });
    });
  });
}

const manifestIn = (tarball) =>
  new Promise((resolvePromise, reject) => {
    const child = spawn('tar', ['-xOzf', tarball, 'package/package.json']);
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
    });
    child.on('close', (code) => (code === 0 ? resolvePromise(JSON.parse(text)) : reject(new Error(`tar ${tarball}`))));
  });

/** `@vsf/sdk`, `@vsf/sdk/node`…: every entry point a manifest exports, JSON files aside. */
function entryPoints(manifest) {
  return Object.keys(manifest.exports ?? { '.': null })
    .filter((subpath) => !subpath.endsWith('.json'))
    .map((subpath) => (subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`));
}

const PROBE_OPTIONS = {
  strict: true,
  // Only the probe's own diagnostics matter there; tsc checks every declaration with the smoke program.
  skipLibCheck: true,
  noEmit: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
};
// A type exported with `export type`, or only a type, used as a value.
// (On a namespace import, `m.X` for a type-only export is 2339/2551: not a property of the module object.)
const TYPE_ONLY_CODES = new Set([1361, 1362, 2339, 2551, 2693, 2708]);

/**
 * The names each entry point's declarations export as values: names whose symbol has a value meaning, minus those
 * the compiler refuses as values (exported with `export type`).
 */
function valueExports(dir, specifiers) {
  const probe = join(dir, 'probe.mts');
  const alias = (i) => `m${i}`;
  const importLines = specifiers.map((s, i) => `import * as ${alias(i)} from '${s}';`);
  writeFileSync(probe, `${importLines.join('\n')}\n`);
  let program = ts.createProgram([probe], PROBE_OPTIONS);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(probe);
  const candidates = specifiers.map((specifier, i) => {
    const statement = source.statements[i];
    const moduleSymbol = checker.getSymbolAtLocation(statement.moduleSpecifier);
    if (!moduleSymbol) throw new Error(`${specifier} has no type declarations the compiler can resolve`);
    return checker
      .getExportsOfModule(moduleSymbol)
      .filter((symbol) => {
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        return (target.flags & ts.SymbolFlags.Value) !== 0;
      })
      .map((symbol) => symbol.name)
      .filter((name) => name !== 'default' || specifier.length === 0);
  });
  const uses = candidates.flatMap((names, i) => names.map((name) => ({ i, name })));
  writeFileSync(
    probe,
    `${importLines.join('\n')}\n${uses.map(({ i, name }) => `void ${alias(i)}.${name};`).join('\n')}\n`,
  );
  program = ts.createProgram([probe], PROBE_OPTIONS, undefined, program);
  const typeOnly = new Set();
  for (const diagnostic of program.getSemanticDiagnostics(program.getSourceFile(probe))) {
    if (!TYPE_ONLY_CODES.has(diagnostic.code)) continue;
    const line = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line - importLines.length;
    typeOnly.add(line);
  }
  rmSync(probe);
  const values = specifiers.map(() => []);
  uses.forEach(({ i, name }, line) => {
    if (!typeOnly.has(line)) values[i].push(name);
  });
  return values;
}

function smokeProgram(specifiers, values) {
  const imports = specifiers.map((s, i) => `import * as m${i} from '${s}';`).join('\n');
  const expected = specifiers
    .map(
      (s, i) =>
        `  [${JSON.stringify(s)}, m${i}, [${values[i].map((n) => `m${i}.${n}`).join(', ')}], ${JSON.stringify(values[i])}],`,
    )
    .join('\n');
  return `${imports}
import type { V1Car } from '@vsf/sdk';

// [entry point, module, each value export read through its typed name, the names the declarations export]
const entries: [string, object, unknown[], string[]][] = [
${expected}
];
const missing: string[] = [];
let checked = 0;
for (const [specifier, module, read, names] of entries) {
  names.forEach((name, i) => {
    checked += 1;
    if (read[i] === undefined || !(name in module)) missing.push(\`\${specifier}: \${name}\`);
  });
}
// The SDK as documented: a client built from options, its generated methods, a type from the contract.
const sdk = m${specifiers.indexOf('@vsf/sdk')};
const client = new sdk.VsfClient({ apiKey: 'vsf_abcdefghijkl.x', baseUrl: 'http://127.0.0.1:9' });
const car: V1Car | undefined = undefined;
if (typeof client.cars.get !== 'function' || sdk.apiEndpoints.getCar.path !== '/cars/{carId}' || car) {
  missing.push('@vsf/sdk: VsfClient does not work as documented');
}
if (missing.length > 0) {
  console.error(\`exported by the declarations but missing at run time:\\n\${missing.join('\\n')}\`);
  process.exit(1);
}
console.log(\`ok: \${checked} exports of \${entries.length} entry points\`);
`;
}

/** Returns the problems found; an empty list means every check passed. */
export async function smokeInstalledPackages(tarballs) {
  const problems = [];
  const dir = mkdtempSync(join(tmpdir(), 'vsf-smoke-'));
  try {
    const manifests = await Promise.all(tarballs.map(manifestIn));
    const dependencies = Object.fromEntries(manifests.map((m, i) => [m.name, `file:${resolve(tarballs[i])}`]));
    const typesNode = requireFromRoot('@types/node/package.json').version;
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify(
        {
          name: 'vsf-smoke',
          private: true,
          type: 'module',
          dependencies: { ...dependencies, '@types/node': typesNode },
          // The packages name each other by version; these are the ones under test, not the registry's.
          overrides: dependencies,
        },
        null,
        2,
      ),
    );
    const started = Date.now();
    const install = await run(
      'npm',
      ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error'],
      { cwd: dir },
    );
    if (install.code !== 0)
      return [`npm install of ${tarballs.map((t) => basename(t)).join(', ')}:\n${install.output}`];
    console.log(`  installed ${manifests.length} tarballs with npm in ${((Date.now() - started) / 1000).toFixed(0)} s`);

    const specifiers = manifests.flatMap(entryPoints);
    const values = valueExports(dir, specifiers);
    const program = smokeProgram(specifiers, values);
    writeFileSync(join(dir, 'smoke.mts'), program);
    writeFileSync(join(dir, 'smoke.cts'), program);
    // A tsconfig in the project, compiled by tsc there, as a user's build would: @types are found from it.
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          skipLibCheck: false,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          noEmitOnError: true,
        },
        files: ['smoke.mts', 'smoke.cts'],
      }),
    );
    const tsc = await run(process.execPath, [requireFromRoot.resolve('typescript/bin/tsc'), '-p', dir], { cwd: dir });
    if (tsc.code !== 0) {
      const lines = tsc.output.trim().split('\n');
      return [
        `the smoke program does not typecheck (strict, skipLibCheck: false):\n${lines.slice(0, 30).join('\n')}${lines.length > 30 ? `\n… ${lines.length - 30} more lines` : ''}`,
      ];
    }
    const bin = (name) => join(root, 'node_modules', '.bin', name);
    const runtimes = [
      ['node', process.execPath, []],
      ['bun', bin('bun'), []],
      ['deno', bin('deno'), ['run', '-A', '--quiet']],
    ];
    for (const [runtime, command, args] of runtimes) {
      for (const file of ['smoke.mjs', 'smoke.cjs']) {
        const ran = await run(command, [...args, file], { cwd: dir, env: { NO_COLOR: '1' } });
        if (ran.code !== 0 || !ran.output.includes('ok: ')) problems.push(`${runtime} ${file}:\n${ran.output.trim()}`);
        else console.log(`  ${runtime} ${file}: ${ran.output.trim().split('\n').at(-1)}`);
      }
    }
  } finally {
    if (process.env.VSF_SMOKE_KEEP) console.log(`  kept ${dir} (VSF_SMOKE_KEEP)`);
    else rmSync(dir, { recursive: true, force: true });
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const tarballs = process.argv.slice(2);
  if (tarballs.length === 0) {
    console.error('usage: node scripts/smoke-installed-packages.mjs <tarball>…');
    process.exit(2);
  }
  const problems = await smokeInstalledPackages(tarballs);
  if (problems.length > 0) {
    console.error(`✖ installed packages:\n${problems.map((p) => `- ${p}`).join('\n')}`);
    process.exit(1);
  }
  console.log('✔ the installed packages typecheck strict and load on Node, Bun and Deno (ESM and CommonJS)');
}
