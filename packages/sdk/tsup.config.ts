import { defineConfig, type Options } from 'tsup';
import { publishedBuild } from '../../scripts/tsup-published.js';

const shared: Options = {
  ...publishedBuild,
  entry: ['src/index.ts', 'src/node.ts'],
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
