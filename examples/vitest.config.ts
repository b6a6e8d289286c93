import { defineProject } from 'vitest/config';

// The examples' own unit tests, against @vsf/testing's mock; tests/examples runs the others against a server.
export default defineProject({
  test: {
    name: 'examples',
    include: ['mock-tested/**/*.test.ts'],
  },
});
