import type { Knex } from 'knex';
import {
  BracketingPgClient,
  type Brackets,
  type BracketsConfig,
  sendDeferredOpening,
} from '../db/bracketing-pg-client.js';
import type { HotStatement } from './hot-statement.js';

export interface BoundStatement {
  statement: HotStatement;
  values: readonly unknown[];
}

/** What a bracketed transaction's body returns: its result, and the statement to run just before commit. */
export interface BracketedResult<T> {
  value: T;
  closing?: BoundStatement | undefined;
}

/**
 * A transaction that starts with `opening` and, when the body asks, ends with a closing statement. On the
 * server's PostgreSQL client they travel with `BEGIN` and `COMMIT` (bracketing-pg-client.ts); on PGlite,
 * where a round trip is a function call, or inside another transaction, they run as statements of their
 * own. Either way the body's error, or the closing statement's, rolls back everything.
 */
export async function transactionBetween<T>(
  db: Knex,
  opening: BoundStatement,
  body: (trx: Knex.Transaction, openingRows: Record<string, unknown>[]) => Promise<BracketedResult<T>>,
): Promise<T> {
  if (db.client instanceof BracketingPgClient && !db.isTransaction) {
    const brackets: Brackets = { opening: opening.statement.withValues(opening.values) };
    const config: BracketsConfig = { vsfBrackets: brackets };
    return db.transaction(async (trx) => {
      const { value, closing } = await body(trx, brackets.openingRows ?? []);
      if (closing) brackets.closing = closing.statement.withValues(closing.values);
      return value;
    }, config as Knex.TransactionConfig);
  }
  return db.transaction(async (trx) => {
    const { value, closing } = await body(trx, await opening.statement.rows(trx, opening.values));
    if (closing) await closing.statement.rows(trx, closing.values);
    return value;
  });
}

/**
 * `transactionBetween`, with the opening sent in the message of the body's first hot statement rather than
 * with `BEGIN` on its own: one round trip fewer when that statement is the body's first query, as a plain
 * create's insert is. `settle` gets the opening's rows when they arrive, before that statement's result
 * reaches the body; throwing there fails the statement, and the body with it, and the transaction rolls
 * back. The body calls `opened()` to have the opening sent and settled if no query of its own sent it
 * yet; it is in any case before the closing statement. For bodies that do nothing outside this database
 * before their first query: they run before the opening is settled.
 */
export async function transactionOpenedByFirstWrite<T>(
  db: Knex,
  opening: BoundStatement,
  settle: (openingRows: Record<string, unknown>[]) => void,
  body: (trx: Knex.Transaction, opened: () => Promise<void>) => Promise<BracketedResult<T>>,
): Promise<T> {
  if (!(db.client instanceof BracketingPgClient) || db.isTransaction) {
    return transactionBetween(db, opening, async (trx, rows) => {
      settle(rows);
      return body(trx, async () => {});
    });
  }
  const brackets: Brackets = { opening: '' };
  const config: BracketsConfig = {
    vsfBrackets: brackets,
    vsfDeferredOpening: { opening: opening.statement.withValues(opening.values), settle },
  };
  return db.transaction(async (trx) => {
    // The transaction's own connection: its client hands out that one, and takes nothing back.
    const opened = async () =>
      sendDeferredOpening((await trx.client.acquireConnection()) as Parameters<typeof sendDeferredOpening>[0]);
    const { value, closing } = await body(trx, opened);
    await opened();
    if (closing) brackets.closing = closing.statement.withValues(closing.values);
    return value;
  }, config as Knex.TransactionConfig);
}
