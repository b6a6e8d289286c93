import { join } from 'node:path';
import { build } from 'esbuild';
import { ROOT } from './child-process.js';

/**
 * Bundles a TypeScript entry point into plain JavaScript, as the published packages ship (tsup, also
 * esbuild), so a child process is measured without tsx: its on-the-fly loader alone adds ~35 MB of
 * RSS that no user of `vsf sync` pays. The database drivers stay external (knex loads them by name).
 */
export async function bundle(entry: string, outDir: string): Promise<string> {
  const outfile = join(outDir, `${entry.split('/').pop()!.replace(/\.ts$/, '')}.mjs`);
  await build({
    entryPoints: [join(ROOT, entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // As the published packages are built (tsup.config.ts): non-ASCII text escaped. Dependencies' license
    // comments go to a file beside it: installed, each dependency is a module of its own, and one `©` in
    // this single file would make Node hold all of it at two bytes a character, which no install does.
    charset: 'ascii',
    legalComments: 'external',
    external: ['knex', 'pg', 'better-sqlite3'],
    logLevel: 'error',
    // CommonJS dependencies (commander, …) require Node built-ins, which an ES module bundle cannot do alone.
    banner: {
      js: "import { createRequire as __vsfCreateRequire } from 'node:module'; const require = __vsfCreateRequire(import.meta.url);",
    },
  });
  return outfile;
}
