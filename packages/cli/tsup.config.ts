import { defineConfig, type Options } from 'tsup';
import { asciiOutput } from '../../scripts/tsup-ascii.js';
import { NODE_SHEBANG, stripSourceShebang } from '../../scripts/tsup-node-bin.js';

const shared: Options = {
  // tsup's declaration bundler still sets baseUrl, which TypeScript 6 deprecates.
  dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
  sourcemap: true,
  target: 'node20',
  ...asciiOutput,
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
