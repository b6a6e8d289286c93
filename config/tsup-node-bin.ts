// Shared by the tsup configs of packages with a `bin`. In the repository a bin runs its TypeScript source
// with `#!/usr/bin/env tsx`; a published bin must run the built JavaScript with plain Node, and tsx is not
// a dependency. esbuild keeps a source hashbang as is, so this plugin drops it and the bin entry's banner
// writes `#!/usr/bin/env node` instead (tsup then marks the file executable).
import { readFile } from 'node:fs/promises';
import type { Options } from 'tsup';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

export const NODE_SHEBANG = '#!/usr/bin/env node';

/** An esbuild plugin that removes the hashbang line of files under `src/bin/`. */
export const stripSourceShebang: EsbuildPlugin = {
  name: 'strip-source-shebang',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]bin[\\/][^\\/]+\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      return { contents: source.replace(/^#![^\n]*\n/, ''), loader: 'ts' };
    });
  },
};

/** The tsup options of a package's bin `bin/<name>` built from `source`: an ES module only, run by Node. */
export function nodeBin(name: string, source: string): Options {
  return {
    entry: { [`bin/${name}`]: source },
    format: ['esm'],
    dts: false,
    banner: { js: NODE_SHEBANG },
    esbuildPlugins: [stripSourceShebang],
  };
}
