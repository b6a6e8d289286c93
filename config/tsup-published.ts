import type { Options } from 'tsup';

/** What every published package's build shares; each tsup config adds its entries and formats. */
export const publishedBuild: Options = {
  // tsup's declaration bundler still sets baseUrl, which TypeScript 6 deprecates.
  dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
  sourcemap: true,
  target: 'node20',
  // Non-ASCII text (’ and — in messages) escaped: Node keeps an all-ASCII module's source at one byte a
  // character and any other at two, for the process's life (~0.5 MB of a `vsf` run).
  esbuildOptions(options) {
    options.charset = 'ascii';
  },
};
