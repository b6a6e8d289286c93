import { defineConfig } from 'tsup';
import { publishedBuild } from '../../config/tsup-published.js';

export default defineConfig({
  ...publishedBuild,
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  // msw is the user's (a peer): their handlers and ours must share one copy of it.
  external: ['msw'],
});
