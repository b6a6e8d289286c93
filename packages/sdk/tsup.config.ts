import { defineConfig, type Options } from 'tsup';

const shared: Options = {
  entry: ['src/index.ts', 'src/node.ts'],
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
  { ...shared, format: ['esm'] },
  {
    ...shared,
    format: ['cjs'],
    // ky and p-retry ship only ES modules; bundling them lets `require('@vsf/sdk')` work where require(esm)
    // does not (Node before 20.19, Jest's module system).
    noExternal: ['ky', 'p-retry', 'is-network-error'],
  },
]);
