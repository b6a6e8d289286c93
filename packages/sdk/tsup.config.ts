import { defineConfig, type Options } from 'tsup';
import { asciiOutput } from '../../scripts/tsup-ascii.js';

const shared: Options = {
  entry: ['src/index.ts', 'src/node.ts'],
  // tsup's declaration bundler still sets baseUrl, which TypeScript 6 deprecates.
  dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
  sourcemap: true,
  target: 'node20',
  ...asciiOutput,
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
