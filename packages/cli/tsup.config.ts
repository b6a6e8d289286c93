import { defineConfig } from 'tsup';
import { nodeBin } from '../../config/tsup-node-bin.js';
import { publishedBuild } from '../../config/tsup-published.js';

export default defineConfig([
  { ...publishedBuild, entry: ['src/index.ts'], format: ['esm', 'cjs'], clean: true },
  // The `vsf` bin: ES module only, run by Node (see config/tsup-node-bin.ts).
  { ...publishedBuild, ...nodeBin('vsf', 'src/bin/vsf.ts') },
]);
