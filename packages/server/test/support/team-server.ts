import { ALL_SCOPES } from '@vsf/contract';
import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from '../../src/testing/index.js';
import { type ApiCaller, apiCaller } from './api-caller.js';

/** A test server with one team on it, and that team's key with every scope. */
export interface TeamServer {
  server: TestServer;
  teamId: string;
  key: string;
  /** Calls the API with `key`. */
  api: ApiCaller;
}

/**
 * A server and a team for a suite: started before its tests (`use` receives them, and may create the
 * suite's own fixtures through `api`), closed after them. The database is the one `startTestServer`
 * picks, so the suite runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
export function teamServer(use: (team: TeamServer) => void | Promise<void>): void {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer();
    const { team, key } = await server.createTeamWithKey(ALL_SCOPES);
    await use({ server, teamId: team.id, key, api: apiCaller(server.baseUrl, key) });
  });
  afterAll(() => server?.close());
}
