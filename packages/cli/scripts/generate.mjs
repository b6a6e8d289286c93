#!/usr/bin/env node
// `pnpm generate` for the CLI: writes src/generated/ from the contract's OpenAPI document.
import { writeFileSync } from 'node:fs';
import { requestFieldsSource } from './request-fields-source.mjs';

const target = new URL('../src/generated/request-fields.ts', import.meta.url);
writeFileSync(target, requestFieldsSource());
console.log(`wrote ${target.pathname}`);
