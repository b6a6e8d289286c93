import type { TestServer } from '../../src/testing/index.js';

/** A statement as knex's 'query' event tells of it. */
export interface SentQuery {
  sql: string;
  bindings: unknown[];
}

/** The statements `server` sends while `work` runs (its pool's; the change listener has its own connection). */
export async function queriesDuring(server: TestServer, work: () => Promise<unknown>): Promise<SentQuery[]> {
  const sent: SentQuery[] = [];
  const listener = (query: SentQuery) => {
    sent.push(query);
  };
  server.db.on('query', listener);
  try {
    await work();
  } finally {
    server.db.off('query', listener);
  }
  return sent;
}
