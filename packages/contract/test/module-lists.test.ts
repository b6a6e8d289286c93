import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MORE_ENDPOINTS_FILE, moreEndpointsSource, SCHEMAS_FILE, schemasSource } from '../scripts/module-lists.js';

const onDisk = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');

describe('the generated module lists', () => {
  it(`${MORE_ENDPOINTS_FILE} is current (run \`pnpm generate\`)`, async () => {
    expect(onDisk(MORE_ENDPOINTS_FILE)).toBe(await moreEndpointsSource());
  });

  it(`${SCHEMAS_FILE} is current (run \`pnpm generate\`)`, () => {
    expect(onDisk(SCHEMAS_FILE)).toBe(schemasSource());
  });
});
