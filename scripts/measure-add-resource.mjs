#!/usr/bin/env node
// `pnpm measure:add-resource`: the README's "Adding a resource", done as a new contributor would, in a
// temporary copy of this checkout. It writes the three files the README names (the declaration, its
// migration, a changeset) for a scratch resource (key boxes), runs `pnpm generate` and the build, and then
// the suites that prove the resource is served, in OpenAPI and the SDK, mirrored, covered by the generated
// suites and given CLI commands. It prints the files and lines written by hand; exit 1 if any step fails.
// Under three minutes on this machine (2m48s); not part of CI.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const pnpm = ['-y', 'pnpm@10.34.9'];
const FILES = {
  'packages/contract/src/endpoints/key-boxes.ts': `import { defineResource } from '../define-resource.js';
import { field, fieldTable } from '../field-table.js';
import { Int4, LongText, NameText } from '../schemas/bounds.js';
import { Uuid } from '../schemas/common.js';
import { v1 } from './groups.js';

/** Boxes of car keys at a location. */
export const keyBoxes = defineResource(v1, {
  name: 'KeyBox',
  path: '/key-boxes',
  scope: 'locations',
  ...fieldTable('V1KeyBox', {
    name: field(NameText.min(1), { doc: 'What staff call the box', example: 'Front desk' }),
    locationId: field(Uuid, { nullable: true, references: 'locations', filter: 'Only boxes at this location' }),
    capacity: field(Int4.min(1), { default: 20, doc: 'Hooks in the box' }),
    notes: field(LongText, { nullable: true }),
  }),
});
`,
  'packages/server/src/db/migrations/999-key-boxes.ts': `import { declaredResources } from '@vsf/contract';
import type { Knex } from 'knex';
import { createResourceTable } from './resource-table.js';

export const up = (knex: Knex) => createResourceTable(knex, declaredResources.keyBoxes);
export const down = (knex: Knex) => knex.schema.dropTable('key_boxes');
`,
  '.changeset/key-boxes.md': `---
"@vsf/contract": minor
---

Key boxes: \`/key-boxes\`, the boxes of car keys at a location.
`,
};
/** What each suite proves of the new resource. */
const SUITES = [
  ['packages/server', 'test/scope-matrix.test.ts', 'its scopes (every operation, both scopes)'],
  ['packages/server', 'test/tenant-isolation.test.ts', 'no other team reads or changes it'],
  ['packages/server', 'test/location-headers.test.ts', 'served: a create answers 201 with a Location'],
  ['packages/server', 'test/migration-columns.test.ts', 'its table holds every field'],
  ['packages/server', 'test/team-row-counts.test.ts', 'its row count and events'],
  ['packages/contract', 'test/openapi-lint.test.ts', 'in OpenAPI, which lints clean'],
  ['tests', 'sdk/types-match-responses.test.ts', 'the SDK types what the server sends'],
  ['tests', 'sync/every-resource-mirror.test.ts', 'mirrored, verified after changes'],
  ['tests', 'cli/resource-commands.test.ts', 'vsf key-boxes list|get|create|update|delete'],
];

const root = new URL('..', import.meta.url).pathname;
const copy = join(mkdtempSync(join(tmpdir(), 'vsf-add-resource-')), 'repo');
const run = (cwd, command, args) => {
  process.stderr.write(`$ ${command} ${args.join(' ')}\n`);
  execFileSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
};

try {
  run(root, 'git', ['worktree', 'add', '--detach', copy, 'HEAD']);
  let lines = 0;
  for (const [file, text] of Object.entries(FILES)) {
    writeFileSync(join(copy, file), text);
    lines += text.trimEnd().split('\n').length;
  }
  run(copy, 'npx', [...pnpm, 'install', '--frozen-lockfile', '--offline']);
  run(copy, 'npx', [...pnpm, 'generate']);
  run(copy, 'npx', [...pnpm, 'build']);
  run(copy, 'npx', [...pnpm, '-r', 'typecheck']);
  const sdk = readFileSync(join(copy, 'packages/sdk/src/generated/vsf-client.ts'), 'utf8');
  const sync = readFileSync(join(copy, 'packages/sync/src/generated/resources.ts'), 'utf8');
  if (!sdk.includes('readonly keyBoxes =') || !sdk.includes('listKeyBoxes'))
    throw new Error('the SDK has no client.keyBoxes');
  if (!sync.includes('"key_boxes"')) throw new Error('the sync mirrors no key_boxes');
  for (const [dir, file, proves] of SUITES) {
    run(join(copy, dir), 'npx', [...pnpm, 'exec', 'vitest', 'run', file]);
    process.stderr.write(`  ✓ ${proves}\n`);
  }
  console.log(
    JSON.stringify(
      {
        resource: 'key boxes',
        filesWritten: Object.keys(FILES).length,
        linesWritten: lines,
        files: Object.keys(FILES),
      },
      null,
      2,
    ),
  );
} catch (error) {
  console.error(`measure:add-resource failed: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
} finally {
  execFileSync('git', ['worktree', 'remove', '--force', copy], { cwd: root, stdio: 'ignore' });
  rmSync(join(copy, '..'), { recursive: true, force: true });
}
