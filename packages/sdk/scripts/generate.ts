// Writes src/generated/ from @vsf/contract. `pnpm generate` runs it; a test fails when the output is stale.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generatedFiles } from './generated-files.js';

for (const [file, contents] of Object.entries(generatedFiles())) {
  writeFileSync(fileURLToPath(new URL(`../${file}`, import.meta.url)), contents);
  console.log(`wrote ${file}`);
}
