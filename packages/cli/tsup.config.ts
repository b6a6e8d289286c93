import { defineConfig } from 'tsup';
import { nodeBin } from '../../scripts/tsup-node-bin.js';
import { publishedBuild } from '../../scripts/tsup-published.js';

export default defineConfig([
  { ...publishedBuild, entry: ['src/index.ts'], format: ['esm', 'cjs'], clean: true },
  // The `vsf` bin: ES module only, run by Node (see scripts/tsup-node-bin.ts).
  { ...publishedBuild, ...nodeBin('vsf', 'src/bin/vsf.ts') },
]);
