import { defineConfig, type Options } from 'tsup';
import { NODE_SHEBANG, stripSourceShebang } from '../../scripts/tsup-node-bin.js';

const shared: Options = {
  // tsup's declaration bundler still sets baseUrl, which TypeScript 6 deprecates.
  dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
  sourcemap: true,
  target: 'node20',
  // `import.meta.url` (locating swagger-ui-dist, the PGlite template) also works in the CommonJS build.
  shims: true,
};

export default defineConfig([
  { ...shared, entry: ['src/index.ts', 'src/testing/index.ts'], format: ['esm', 'cjs'], clean: true },
  // The `vsf-server` bin: ES module only, run by Node (see scripts/tsup-node-bin.mjs).
  {
    ...shared,
    entry: { 'bin/vsf-server': 'src/bin/vsf-server.ts' },
    format: ['esm'],
    dts: false,
    banner: { js: NODE_SHEBANG },
    esbuildPlugins: [stripSourceShebang],
  },
]);
