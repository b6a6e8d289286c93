import type { Knex } from 'knex';
import type { TestServer } from '../../src/testing/index.js';

/** A statement as knex's 'query' event tells of it. */
export interface SentQuery {
  sql: string;
  bindings: unknown[];
}

/** The statements `server` sends while `work` runs (its pool's; the change listener has its own connection). */
export function queriesDuring(server: TestServer, work: () => Promise<unknown>): Promise<SentQuery[]> {
  return queriesOn(server.db, work);
}

/** The statements a knex instance sends while `work` runs. */
export async function queriesOn(knex: Knex, work: () => Promise<unknown>): Promise<SentQuery[]> {
  const sent: SentQuery[] = [];
  const listener = (query: SentQuery) => {
    sent.push(query);
  };
  knex.on('query', listener);
  try {
    await work();
  } finally {
    knex.off('query', listener);
  }
  return sent;
}
