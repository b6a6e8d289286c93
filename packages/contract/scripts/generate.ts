// Writes the checked-in OpenAPI documents and src/generated/ (module lists, endpoint names, assistant tools). `pnpm generate` runs it; tests
// fail when either is stale.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MORE_ENDPOINTS_FILE, moreEndpointsSource, SCHEMAS_FILE, schemasSource } from './module-lists.js';

const write = (file: string, text: string) => {
  const path = fileURLToPath(new URL(`../${file}`, import.meta.url));
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  console.log(`wrote ${file}`);
};

// The module lists first: the package index (which the OpenAPI builder loads) imports them.
write(MORE_ENDPOINTS_FILE, await moreEndpointsSource());
write(SCHEMAS_FILE, schemasSource());
const { buildOpenApiDocument } = await import('../src/openapi/build-openapi-document.js');
const { OPENAPI_FILES } = await import('./openapi-files.js');
const { ENDPOINT_NAMES_FILE, endpointNamesSource } = await import('./endpoint-names.js');
const { ASSISTANT_TOOLS_FILE, assistantToolsSource } = await import('./assistant-tools-source.js');
for (const [surface, file] of Object.entries(OPENAPI_FILES) as [keyof typeof OPENAPI_FILES, string][]) {
  write(file, `${JSON.stringify(buildOpenApiDocument(surface), null, 2)}\n`);
}
write(ENDPOINT_NAMES_FILE, await endpointNamesSource());
write(ASSISTANT_TOOLS_FILE, assistantToolsSource());
