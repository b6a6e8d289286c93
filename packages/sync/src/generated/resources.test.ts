import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { resourcesSource } from '../../scripts/resources-source.js';

it('resources.ts is what `pnpm generate` makes from the current contract', () => {
  const checkedIn = readFileSync(new URL('./resources.ts', import.meta.url), 'utf8');
  expect(checkedIn === resourcesSource(), 'stale: run `pnpm generate`').toBe(true);
});
