import { defineConfig } from 'tsup';
import { publishedBuild } from '../../config/tsup-published.js';

export default defineConfig({
  ...publishedBuild,
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  clean: true,
});
