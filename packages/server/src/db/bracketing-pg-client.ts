import { createRequire } from 'node:module';
import type { Knex } from 'knex';
import type pg from 'pg';

/**
 * A transaction's first and last statements, each sent in the same message as `BEGIN` or `COMMIT`: the
 * caller puts them here (the closing one once its body knows it), knex's transaction sends them.
 */
export interface Brackets {
  /** SQL text sent after `BEGIN` in one message; its rows land in `openingRows`. */
  opening: string;
  openingRows?: Record<string, unknown>[];
  /** SQL text sent before `COMMIT` in one message, when set by the time the body returns. */
  closing?: string;
}

/** What the transaction's config carries (knex copies the config object, not what it points to). */
export interface BracketsConfig {
  vsfBrackets?: Brackets;
}

/** The parts of knex's PostgreSQL transaction this file overrides or calls (knex 3, lib/execution/transaction.js). */
interface PgTransaction {
  begin(connection: pg.Client): Promise<unknown>;
  commit(connection: pg.Client, value: unknown): Promise<unknown>;
  rollback(connection: pg.Client, error: unknown): Promise<unknown>;
  _resolver(value: unknown): void;
  _completed: boolean;
}
type PgTransactionClass = new (client: unknown, container: unknown, config: unknown, outerTx: unknown) => PgTransaction;

// knex exports no dialect classes; knex-pglite extends the PostgreSQL one the same way.
const require = createRequire(import.meta.url);
const KnexPgClient = require('knex/lib/dialects/postgres/index.js') as typeof Knex.Client;
const KnexPgTransaction = require('knex/lib/dialects/postgres/execution/pg-transaction.js') as PgTransactionClass;

/**
 * Each statement on its own costs a round trip, and on a busy server the socket write that wakes
 * PostgreSQL costs about as much CPU as the work it asks for. An idempotent create's key claim rides
 * with `BEGIN` and its stored response with `COMMIT`: three round trips instead of five.
 */
class BracketedTransaction extends KnexPgTransaction {
  private readonly brackets: Brackets | undefined;

  constructor(client: unknown, container: unknown, config: BracketsConfig | undefined, outerTx: unknown) {
    super(client, container, config, outerTx);
    // A nested transaction is a savepoint: it neither begins nor commits.
    this.brackets = outerTx ? undefined : config?.vsfBrackets;
  }

  override async begin(connection: pg.Client): Promise<unknown> {
    const brackets = this.brackets;
    if (!brackets) return super.begin(connection);
    try {
      const results = (await connection.query(`begin;\n${brackets.opening}`)) as unknown as pg.QueryResult[];
      brackets.openingRows = results[1]?.rows ?? [];
      return results;
    } catch (error) {
      // A failed opening leaves the transaction open and aborted; the pool must not get it back that way.
      await connection.query('rollback').catch(() => undefined);
      throw error;
    }
  }

  override async commit(connection: pg.Client, value: unknown): Promise<unknown> {
    const closing = this.brackets?.closing;
    if (closing === undefined) return super.commit(connection, value);
    try {
      await connection.query(`${closing};\ncommit`);
    } catch (error) {
      // The closing statement failed (the commit was skipped) or the commit did: undo it all, report why.
      return this.rollback(connection, error);
    }
    // What knex's own commit does once `COMMIT` answers (its query(conn, sql, 1, value)).
    this._completed = true;
    this._resolver(value);
    return undefined;
  }
}

/** knex's `pg` client, whose transactions can carry a first and last statement (`Brackets`). */
export class BracketingPgClient extends KnexPgClient {
  // biome-ignore lint/suspicious/noExplicitAny: knex's own declaration of this method
  override transaction(container: any, config: BracketsConfig | undefined, outerTx: any): Knex.Transaction {
    return new BracketedTransaction(this, container, config, outerTx) as unknown as Knex.Transaction;
  }
}
