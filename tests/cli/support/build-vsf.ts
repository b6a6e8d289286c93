// Vitest global setup: builds the `vsf` bin once per run the way it ships, as plain JavaScript run by Node,
// so the suites spawn what staff run rather than TypeScript under tsx. The workspace packages are bundled
// in (in the repository their `exports` point at TypeScript sources that Node cannot load); the database
// drivers stay external, as they are optional peers loaded by name.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';

export const BUILT_VSF_DIR = join(import.meta.dirname, '../.built');

export default async function setup(project: TestProject): Promise<void> {
  mkdirSync(BUILT_VSF_DIR, { recursive: true });
  const outfile = join(BUILT_VSF_DIR, 'vsf.mjs');
  await build({
    entryPoints: [join(import.meta.dirname, '../../../packages/cli/src/bin/vsf.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['pg', 'better-sqlite3'],
    logLevel: 'error',
    sourcemap: 'inline',
    // CommonJS dependencies (commander, …) require Node built-ins, which an ES module bundle cannot do alone.
    banner: {
      js: "import { createRequire as __vsfCreateRequire } from 'node:module'; const require = __vsfCreateRequire(import.meta.url);",
    },
  });
  project.provide('builtVsf', outfile);
}

declare module 'vitest' {
  export interface ProvidedContext {
    builtVsf: string;
  }
}
