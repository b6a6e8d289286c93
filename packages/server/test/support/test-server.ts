import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from '../../src/testing/index.js';

/** A suite's server: started before its tests, closed after them. Read `.server` inside a test. */
export function useTestServer(): { server: TestServer } {
  const held = {} as { server: TestServer };
  beforeAll(async () => {
    held.server = await startTestServer();
  });
  afterAll(() => held.server?.close());
  return held;
}
