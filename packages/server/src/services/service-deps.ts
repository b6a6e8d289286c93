import type { Knex } from 'knex';

export interface ServiceDeps {
  db: Knex;
  /** The server's clock; every timestamp the API returns and compares comes from it. */
  now: () => Date;
}
