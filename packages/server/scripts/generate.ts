// Writes src/generated/ (`pnpm generate` runs it; tests fail when a file there is stale).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MIGRATION_LIST_FILE, migrationListSource } from './migration-list.js';

const path = fileURLToPath(new URL(`../${MIGRATION_LIST_FILE}`, import.meta.url));
mkdirSync(dirname(path), { recursive: true });
writeFileSync(path, migrationListSource());
console.log(`wrote ${MIGRATION_LIST_FILE}`);
