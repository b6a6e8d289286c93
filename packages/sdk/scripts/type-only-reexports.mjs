#!/usr/bin/env node
// Run after tsup by `pnpm build`. tsup's declaration bundler turns `export type * from '@vsf/contract'` into
// `export * from '@vsf/contract'`, which would declare the contract's schemas (`V1CarCreate`…) as values of
// `@vsf/sdk`: `import { V1CarCreate } from '@vsf/sdk'` would typecheck and then crash, since the SDK's
// JavaScript carries no schema. This puts the `type` back in every built declaration file, and fails the build
// when the line is missing, so a change in the bundler's output cannot pass unnoticed.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dist = new URL('../dist/', import.meta.url).pathname;
const dropped = "export * from '@vsf/contract';";
const restored = "export type * from '@vsf/contract';";

for (const file of ['index.d.ts', 'index.d.cts']) {
  const path = join(dist, file);
  const text = readFileSync(path, 'utf8');
  if (text.includes(restored)) continue;
  if (!text.includes(dropped)) {
    console.error(`✖ ${path} has neither \`${dropped}\` nor \`${restored}\`: check how tsup bundles src/index.ts`);
    process.exit(1);
  }
  writeFileSync(path, text.replace(dropped, restored));
}
const stray = readdirSync(dist).filter(
  (f) => /\.d\.c?ts$/.test(f) && readFileSync(join(dist, f), 'utf8').includes(dropped),
);
if (stray.length > 0) {
  console.error(`✖ value re-export of the contract left in ${stray.join(', ')}`);
  process.exit(1);
}
