import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'tests',
    include: ['**/*.test.ts'],
    // Builds the `vsf` bin once, as it ships, for the CLI suites.
    globalSetup: ['cli/support/build-vsf.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
});
