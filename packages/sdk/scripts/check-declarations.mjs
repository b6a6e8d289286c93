#!/usr/bin/env node
// Run after tsup by `pnpm build`: the published declarations must stand alone. They are generated from the
// contract, but a user's compiler must never be sent into it (or into zod): that is what made a strict
// (`skipLibCheck: false`) check of a five-line program take 40 s. Fails the build naming the file and module.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dist = new URL('../dist/', import.meta.url).pathname;
const problems = [];
for (const file of readdirSync(dist).filter((f) => /\.d\.c?ts$/.test(f))) {
  const text = readFileSync(join(dist, file), 'utf8');
  for (const [, module] of text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
    if (module.startsWith('.') || module === 'ky' || module === 'p-retry') continue;
    problems.push(`${file} refers to ${module}`);
  }
}
if (problems.length > 0) {
  console.error(`✖ the SDK's declarations must refer only to themselves, ky and p-retry:\n${problems.join('\n')}`);
  process.exit(1);
}
