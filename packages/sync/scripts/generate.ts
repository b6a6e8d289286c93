// Writes src/generated/ from @vsf/contract. `pnpm generate` runs it; a test fails when the output is stale.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resourcesSource } from './resources-source.js';

const target = fileURLToPath(new URL('../src/generated/resources.ts', import.meta.url));
writeFileSync(target, resourcesSource());
console.log(`wrote ${target}`);
