import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from '../../src/testing/index.js';

/** The server a suite's long polls wait on, and the one its writes go through. */
export interface WaiterAndWriter {
  waiter: TestServer;
  writer: TestServer;
}

/**
 * A waiter and a writer for a suite: with TEST_DATABASE_URL, two instances on that database (the writer's
 * commits reach the waiter as PostgreSQL notifications); on PGlite, one server that is both (an in-process
 * notification). Started before the suite's tests (`use` receives them), closed after them.
 */
export function waiterAndWriter(use: (servers: WaiterAndWriter) => void): void {
  let waiter: TestServer | undefined;
  let writer: TestServer | undefined;
  beforeAll(async () => {
    const databaseUrl = process.env.TEST_DATABASE_URL;
    waiter = await startTestServer();
    writer = databaseUrl ? await startTestServer({ databaseUrl }) : waiter;
    use({ waiter, writer });
  });
  afterAll(async () => {
    await waiter?.close();
    if (writer !== waiter) await writer?.close();
  });
}
