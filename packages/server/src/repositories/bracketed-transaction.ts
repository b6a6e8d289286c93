import type { Knex } from 'knex';
import { BracketingPgClient, type Brackets, type BracketsConfig } from '../db/bracketing-pg-client.js';
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
