import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without declarations
import { readWorkspace, workspaceGraphProblems } from '../../scripts/workspace-graph.mjs';

const root = new URL('../..', import.meta.url).pathname;
const pkg = (name: string, deps: Record<string, string> = {}, extra: Record<string, unknown> = {}) => ({
  name,
  devDependencies: deps,
  ...extra,
});

describe('the workspace package graph', () => {
  it('has published packages depending downwards only, and no cycle', () => {
    const manifests = readWorkspace(root);
    expect(manifests.map((m: { name: string }) => m.name)).toEqual(
      expect.arrayContaining(['@vsf/contract', '@vsf/sdk', '@vsf/server', '@vsf/sync', '@vsf/cli', '@vsf/tests']),
    );
    expect(workspaceGraphProblems(manifests)).toEqual([]);
  });

  it('refuses a client that pulls in the server, a dependency on a private package, and a cycle', () => {
    expect(
      workspaceGraphProblems([
        pkg('@vsf/contract'),
        pkg('@vsf/server', { '@vsf/contract': '*' }),
        pkg('@vsf/sdk', { '@vsf/server': '*' }),
        pkg('@vsf/sync', { '@vsf/tests': '*' }),
        pkg('@vsf/tests', { '@vsf/sync': '*' }, { private: true }),
      ]),
    ).toEqual([
      '@vsf/sdk depends on @vsf/server, which is not below it: move the suite to tests/',
      '@vsf/sync depends on the private package @vsf/tests',
      'dependency cycle: @vsf/sync → @vsf/tests → @vsf/sync',
    ]);
  });
});
