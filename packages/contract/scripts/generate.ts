// Writes the checked-in OpenAPI documents. `pnpm generate` runs it; a test fails when they are stale.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../src/openapi/build-openapi-document.js';
import { OPENAPI_FILES } from './openapi-files.js';

for (const [surface, file] of Object.entries(OPENAPI_FILES) as [keyof typeof OPENAPI_FILES, string][]) {
  const path = fileURLToPath(new URL(`../${file}`, import.meta.url));
  writeFileSync(path, `${JSON.stringify(buildOpenApiDocument(surface), null, 2)}\n`);
  console.log(`wrote ${file}`);
}
