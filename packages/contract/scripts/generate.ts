// Writes the checked-in OpenAPI documents, src/generated/endpoints.ts and src/generated/assistant-tools.ts. `pnpm generate` runs it; tests
// fail when either is stale.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../src/openapi/build-openapi-document.js';
import { ASSISTANT_TOOLS_FILE, assistantToolsSource } from './assistant-tools-source.js';
import { ENDPOINT_NAMES_FILE, endpointNamesSource } from './endpoint-names.js';
import { OPENAPI_FILES } from './openapi-files.js';

const write = (file: string, text: string) => {
  const path = fileURLToPath(new URL(`../${file}`, import.meta.url));
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  console.log(`wrote ${file}`);
};

for (const [surface, file] of Object.entries(OPENAPI_FILES) as [keyof typeof OPENAPI_FILES, string][]) {
  write(file, `${JSON.stringify(buildOpenApiDocument(surface), null, 2)}\n`);
}
write(ENDPOINT_NAMES_FILE, await endpointNamesSource());
write(ASSISTANT_TOOLS_FILE, assistantToolsSource());
