import type { Knex } from 'knex';

/** What a repository runs its statements on: the pool, or the transaction the service opened. */
export type Executor = Knex | Knex.Transaction;
