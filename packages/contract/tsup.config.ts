import { defineConfig } from 'tsup';
import { asciiOutput } from '../../scripts/tsup-ascii.js';

export default defineConfig({
  // image-type is its own entry: the SDK checks photos with it and must not load zod (the index does).
  entry: ['src/index.ts', 'src/image-type.ts'],
  format: ['esm', 'cjs'],
  // tsup's declaration bundler still sets baseUrl, which TypeScript 6 deprecates.
  dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
  clean: true,
  sourcemap: true,
  target: 'node20',
  ...asciiOutput,
});
