import { readFileSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';
import { publishedBuild } from '../../config/tsup-published.js';

// The User-Agent's version is generated (src/generated/constants.ts) rather than imported from package.json, which
// a bundle would carry whole; a release that bumped the version without `pnpm generate` must not build.
const { version } = JSON.parse(readFileSync(new URL('package.json', import.meta.url), 'utf8')) as { version: string };
if (
  !readFileSync(new URL('src/generated/constants.ts', import.meta.url), 'utf8').includes(`SDK_VERSION = '${version}'`)
) {
  throw new Error(
    `src/generated/constants.ts does not carry version ${version} of package.json: run \`pnpm generate\``,
  );
}

const shared: Options = {
  ...publishedBuild,
  entry: ['src/index.ts', 'src/node.ts'],
  // Under 1 MB installed with its dependencies (issue #33): the maps were 0.68 MB of 1.8, and the doc comments
  // belong in the declarations, where editors read them, not in the JavaScript too.
  sourcemap: false,
  minifyWhitespace: true,
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
