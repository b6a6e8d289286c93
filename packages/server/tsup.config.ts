import { cpSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';
import { NODE_SHEBANG, stripSourceShebang } from '../../config/tsup-node-bin.js';
import { publishedBuild } from '../../config/tsup-published.js';

const shared: Options = {
  ...publishedBuild,
  // `import.meta.url` (locating swagger-ui-dist, the PGlite template) also works in the CommonJS build.
  shims: true,
};

/**
 * The /admin page's script and stylesheet are served from `./assets/` beside the module that reads them;
 * bundled, that module is each entry's output file, so every output folder gets a copy.
 */
const copyAdminAssets =
  (...dirs: string[]) =>
  async () => {
    for (const dir of dirs) {
      cpSync('src/http/admin-page/assets', `dist/${dir}assets`, {
        recursive: true,
        filter: (source) => !source.endsWith('tsconfig.json'),
      });
    }
  };

export default defineConfig([
  {
    ...shared,
    entry: ['src/index.ts', 'src/testing/index.ts'],
    format: ['esm', 'cjs'],
    clean: true,
    onSuccess: copyAdminAssets('', 'testing/'),
  },
  // The `vsf-server` bin: ES module only, run by Node (see config/tsup-node-bin.ts).
  {
    ...shared,
    entry: { 'bin/vsf-server': 'src/bin/vsf-server.ts' },
    format: ['esm'],
    dts: false,
    banner: { js: NODE_SHEBANG },
    esbuildPlugins: [stripSourceShebang],
    onSuccess: copyAdminAssets('bin/'),
  },
]);
