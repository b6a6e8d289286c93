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

/**
 * An opening sent with the transaction's first statement instead of with `BEGIN` (one round trip fewer):
 * the transaction sends nothing until its body's first query. `settle` gets the opening's rows as soon as
 * they arrive and may throw, which fails that first query and so the body.
 */
export interface DeferredOpening {
  opening: string;
  settle(rows: Record<string, unknown>[]): void;
}

/** Transactions begun whose `BEGIN` and opening wait for their first statement, by their connection. */
const deferredOpenings = new WeakMap<object, DeferredOpening>();

/** Whether a transaction's opening waits on `connection` for its first statement (rideDeferredOpening). */
export function hasDeferredOpening(connection: object): boolean {
  return deferredOpenings.has(connection);
}

/**
 * Sends `connection`'s deferred opening, if one waits, with `BEGIN` in one message, and settles it. A failed
 * message leaves no transaction open: it is rolled back before the error is thrown.
 */
export async function sendDeferredOpening(connection: pg.Client): Promise<void> {
  const deferred = deferredOpenings.get(connection);
  if (!deferred) return;
  deferredOpenings.delete(connection);
  const results = await queryOrRollBack(connection, `begin;\n${deferred.opening}`);
  deferred.settle(results[1]?.rows ?? []);
}

/**
 * Runs `statement` (SQL text, values written in) in the message that sends `connection`'s deferred opening,
 * and answers its rows; undefined, sending nothing, when no opening waits. If that message fails, the
 * opening is sent again on its own and settled (its verdict comes first), then the statement runs alone
 * with `values` bound, so it fails or succeeds as it would have without riding.
 */
export async function rideDeferredOpening(
  connection: pg.Client,
  statement: () => string,
  runAlone: () => Promise<Record<string, unknown>[]>,
): Promise<Record<string, unknown>[] | undefined> {
  const deferred = deferredOpenings.get(connection);
  if (!deferred) return undefined;
  let text: string;
  try {
    text = statement();
  } catch {
    // A value SQL text cannot carry: the opening goes first, then the statement with its values bound.
    await sendDeferredOpening(connection);
    return runAlone();
  }
  deferredOpenings.delete(connection);
  let results: pg.QueryResult[];
  try {
    results = await queryOrRollBack(connection, `begin;\n${deferred.opening};\n${text}`);
  } catch {
    deferredOpenings.set(connection, deferred);
    await sendDeferredOpening(connection);
    return runAlone();
  }
  deferred.settle(results[1]?.rows ?? []);
  return results[2]?.rows ?? [];
}

async function queryOrRollBack(connection: pg.Client, text: string): Promise<pg.QueryResult[]> {
  try {
    return (await connection.query(text)) as unknown as pg.QueryResult[];
  } catch (error) {
    // A failed message leaves the transaction open and aborted; the pool must not get it back that way.
    await connection.query('rollback').catch(() => undefined);
    throw error;
  }
}

/** What the transaction's config carries (knex copies the config object, not what it points to). */
export interface BracketsConfig {
  vsfBrackets?: Brackets;
  vsfDeferredOpening?: DeferredOpening;
}

/** The parts of knex's PostgreSQL transaction this file overrides or calls (knex 3, lib/execution/transaction.js). */
interface PgTransaction {
  begin(connection: pg.Client): Promise<unknown>;
  commit(connection: pg.Client, value: unknown): Promise<unknown>;
  rollback(connection: pg.Client, error: unknown): Promise<unknown>;
  _resolver(value: unknown): void;
  _rejecter(error: unknown): void;
  _completed: boolean;
}
type PgTransactionClass = new (client: unknown, container: unknown, config: unknown, outerTx: unknown) => PgTransaction;

// knex exports no dialect classes; knex-pglite extends the PostgreSQL one the same way.
const require = createRequire(import.meta.url);
// biome-ignore lint/suspicious/noExplicitAny: knex's own signature of its query runner
type QueryRunner = (connection: any, obj: any) => Promise<any>;
const KnexPgClient = require('knex/lib/dialects/postgres/index.js') as typeof Knex.Client;
const runQuery = (KnexPgClient.prototype as unknown as { _query: QueryRunner })._query;
const KnexPgTransaction = require('knex/lib/dialects/postgres/execution/pg-transaction.js') as PgTransactionClass;

/**
 * Each statement on its own costs a round trip, and on a busy server the socket write that wakes
 * PostgreSQL costs about as much CPU as the work it asks for. An idempotent create's key claim rides
 * with `BEGIN` and its stored response with `COMMIT`: three round trips instead of five.
 */
class BracketedTransaction extends KnexPgTransaction {
  private readonly brackets: Brackets | undefined;
  private readonly deferred: DeferredOpening | undefined;

  constructor(client: unknown, container: unknown, config: BracketsConfig | undefined, outerTx: unknown) {
    super(client, container, config, outerTx);
    // A nested transaction is a savepoint: it neither begins nor commits.
    this.brackets = outerTx ? undefined : config?.vsfBrackets;
    this.deferred = outerTx ? undefined : config?.vsfDeferredOpening;
  }

  override async begin(connection: pg.Client): Promise<unknown> {
    if (this.deferred) {
      deferredOpenings.set(connection, this.deferred);
      return undefined;
    }
    const brackets = this.brackets;
    if (!brackets) return super.begin(connection);
    const results = await queryOrRollBack(connection, `begin;\n${brackets.opening}`);
    brackets.openingRows = results[1]?.rows ?? [];
    return results;
  }

  override rollback(connection: pg.Client, error: unknown): Promise<unknown> {
    // Nothing was sent yet: there is no transaction to roll back, only the waiting opening to drop.
    if (deferredOpenings.delete(connection)) {
      this._completed = true;
      this._rejecter(error);
      return Promise.resolve(undefined);
    }
    return super.rollback(connection, error);
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
  /** Every query knex runs on a connection whose transaction waits to begin sends the opening first. */
  // biome-ignore lint/suspicious/noExplicitAny: knex's own signature of its query runner
  async _query(connection: any, obj: any): Promise<any> {
    await sendDeferredOpening(connection);
    return runQuery.call(this, connection, obj);
  }

  // biome-ignore lint/suspicious/noExplicitAny: knex's own declaration of this method
  override transaction(container: any, config: BracketsConfig | undefined, outerTx: any): Knex.Transaction {
    return new BracketedTransaction(this, container, config, outerTx) as unknown as Knex.Transaction;
  }
}
