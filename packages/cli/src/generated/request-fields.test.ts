import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without declarations
import { requestFieldsSource } from '../../scripts/request-fields-source.mjs';

it('request-fields.ts is what `pnpm generate` makes from the current openapi.json', () => {
  const checkedIn = readFileSync(new URL('./request-fields.ts', import.meta.url), 'utf8');
  expect(checkedIn === requestFieldsSource(), 'stale: run `pnpm generate`').toBe(true);
});
