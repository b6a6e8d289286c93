// The workspace's package graph, checked: packages depend downwards only. Run by check-packages.mjs (and so
// by `pnpm test`); tests/workspace/package-graph.test.ts shows it catches what it should.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How far up each published package sits: one may depend (in any dependency field) only on packages
 * below it. The server sits beside the SDK: clients never carry it, and it never needs them.
 */
export const LAYERS = {
  '@vsf/contract': 0,
  '@vsf/sdk': 1,
  '@vsf/server': 1,
  '@vsf/sync': 2,
  // The mock for integrators' tests: the contract's endpoints, checked against the SDK in its own tests.
  '@vsf/testing': 2,
  '@vsf/cli': 3,
};

const FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'];

/** Every workspace manifest: packages/*, examples and tests. */
export function readWorkspace(root) {
  const dirs = [
    ...readdirSync(join(root, 'packages')).map((name) => join(root, 'packages', name)),
    join(root, 'examples'),
    join(root, 'tests'),
  ];
  return dirs
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')));
}

/** What is wrong with a set of manifests' internal dependencies; empty when the graph is sound. */
export function workspaceGraphProblems(manifests) {
  const names = new Set(manifests.map((m) => m.name));
  const edges = new Map(
    manifests.map((m) => [
      m.name,
      [...new Set(FIELDS.flatMap((field) => Object.keys(m[field] ?? {})).filter((dep) => names.has(dep)))],
    ]),
  );
  const problems = [];
  for (const manifest of manifests) {
    for (const dep of edges.get(manifest.name) ?? []) {
      const target = manifests.find((m) => m.name === dep);
      if (!manifest.private && target?.private) problems.push(`${manifest.name} depends on the private package ${dep}`);
      else if (!manifest.private && !(manifest.name in LAYERS))
        problems.push(`${manifest.name} is published but has no place in LAYERS (scripts/workspace-graph.mjs)`);
      else if (!manifest.private && (LAYERS[dep] ?? Number.POSITIVE_INFINITY) >= LAYERS[manifest.name])
        problems.push(`${manifest.name} depends on ${dep}, which is not below it: move the suite to tests/`);
    }
  }
  // A cycle through any kind of dependency, private packages included.
  const state = new Map();
  const visit = (name, path) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'active') {
      problems.push(`dependency cycle: ${[...path.slice(path.indexOf(name)), name].join(' → ')}`);
      return;
    }
    state.set(name, 'active');
    for (const dep of edges.get(name) ?? []) visit(dep, [...path, name]);
    state.set(name, 'done');
  };
  for (const name of names) visit(name, []);
  return problems;
}
