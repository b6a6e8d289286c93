import { defineConfig, type Options } from 'tsup';
import { NODE_SHEBANG, stripSourceShebang } from '../../scripts/tsup-node-bin.js';

const shared: Options = {
  // tsup's declaration bundler still sets baseUrl, which TypeScript 6 deprecates.
  dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
  sourcemap: true,
  target: 'node20',
  // Non-ASCII text (’ — in messages) escaped: Node keeps an all-ASCII module's source at one byte a
  // character, any other at two, for the process's life.
  esbuildOptions(options) {
    options.charset = 'ascii';
  },
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
