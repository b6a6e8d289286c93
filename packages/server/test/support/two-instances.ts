import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer, type TestServerOptions } from '../../src/testing/index.js';

/**
 * Two server instances on the same stores for a suite: started before its tests (`use` receives them),
 * closed after them, including the first when the second fails to start.
 */
export function twoInstances(options: () => TestServerOptions, use: (a: TestServer, b: TestServer) => void): void {
  const servers: TestServer[] = [];
  beforeAll(async () => {
    servers.push(await startTestServer(options()));
    servers.push(await startTestServer(options()));
    use(servers[0] as TestServer, servers[1] as TestServer);
  });
  afterAll(async () => {
    for (const server of servers.splice(0)) await server.close();
  });
}
