import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { resourceCommandsSource } from '../../scripts/resource-commands-source.js';

it('resource-commands.ts is what `pnpm generate` makes from the current contract', () => {
  const checkedIn = readFileSync(new URL('./resource-commands.ts', import.meta.url), 'utf8');
  expect(checkedIn === resourceCommandsSource(), 'stale: run `pnpm generate`').toBe(true);
});
