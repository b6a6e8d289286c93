import { defineConfig } from 'tsup';

export default defineConfig({
  // image-type is its own entry: the SDK checks photos with it and must not load zod (the index does).
  entry: ['src/index.ts', 'src/image-type.ts'],
  format: ['esm', 'cjs'],
  // tsup's declaration bundler still sets baseUrl, which TypeScript 6 deprecates.
  dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
  clean: true,
  sourcemap: true,
  target: 'node20',
  // Non-ASCII text (’ — in messages) escaped: Node keeps an all-ASCII module's source at one byte a
  // character, any other at two, for the process's life.
  esbuildOptions(options) {
    options.charset = 'ascii';
  },
});
