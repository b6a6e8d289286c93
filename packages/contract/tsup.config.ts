import { defineConfig } from 'tsup';
import { publishedBuild } from '../../config/tsup-published.js';

export default defineConfig({
  ...publishedBuild,
  // image-type is its own entry: the SDK checks photos with it and must not load zod (the index does).
  // assistant-tools likewise: `vsf mcp` serves the tools without loading zod.
  entry: {
    index: 'src/index.ts',
    'image-type': 'src/image-type.ts',
    'assistant-tools': 'src/assistant-tools/index.ts',
  },
  format: ['esm', 'cjs'],
  clean: true,
});
