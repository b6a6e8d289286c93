import { ALL_SCOPES } from '@vsf/contract';
import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { type ApiCaller, apiCaller } from './api-caller.js';
import { createWorld } from './endpoint-fixtures.js';

/** A server, a key with every scope, and one record of every kind (`createWorld`), for a suite's life. */
export interface WorldServer {
  server: TestServer;
  api: ApiCaller;
  world: Record<string, string>;
}

/** Starts the server and makes the world before the suite's tests; closes it after. Read it inside a test. */
export function useWorldServer(): WorldServer {
  const held = {} as WorldServer;
  beforeAll(async () => {
    held.server = await startTestServer();
    const { key } = await held.server.createTeamWithKey(ALL_SCOPES);
    held.api = apiCaller(held.server.baseUrl, key);
    held.world = await createWorld(held.api);
  }, 60_000);
  afterAll(() => held.server?.close());
  return held;
}
