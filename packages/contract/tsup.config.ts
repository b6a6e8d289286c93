import { defineConfig } from 'tsup';
import { publishedBuild } from '../../scripts/tsup-published.js';

export default defineConfig({
  ...publishedBuild,
  // image-type is its own entry: the SDK checks photos with it and must not load zod (the index does).
  entry: ['src/index.ts', 'src/image-type.ts'],
  format: ['esm', 'cjs'],
  clean: true,
});
