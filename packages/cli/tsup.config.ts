import { defineConfig, type Options } from 'tsup';
import { NODE_SHEBANG, stripSourceShebang } from '../../scripts/tsup-node-bin.js';
import { publishedBuild } from '../../scripts/tsup-published.js';

const shared: Options = {
  ...publishedBuild,
};

export default defineConfig([
  { ...shared, entry: ['src/index.ts'], format: ['esm', 'cjs'], clean: true },
  // The `vsf` bin: ES module only, run by Node (see scripts/tsup-node-bin.mjs).
  {
    ...shared,
    entry: { 'bin/vsf': 'src/bin/vsf.ts' },
    format: ['esm'],
    dts: false,
    banner: { js: NODE_SHEBANG },
    esbuildPlugins: [stripSourceShebang],
  },
]);
