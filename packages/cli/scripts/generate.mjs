#!/usr/bin/env node
// `pnpm generate` for the CLI (run through tsx): writes src/generated/ from the contract.
import { writeFileSync } from 'node:fs';
import { requestFieldsSource } from './request-fields-source.mjs';
import { resourceCommandsSource } from './resource-commands-source.ts';

const write = (file, text) => {
  const target = new URL(`../src/generated/${file}`, import.meta.url);
  writeFileSync(target, text);
  console.log(`wrote ${target.pathname}`);
};
write('request-fields.ts', requestFieldsSource());
write('resource-commands.ts', resourceCommandsSource());
