import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { ApiHttpError, conflict } from '../errors/api-http-error.js';
import { transactionBetween, transactionOpenedByFirstWrite } from '../repositories/bracketed-transaction.js';
import { HotStatement } from '../repositories/hot-statement.js';
import { fingerprintMatches, requestFingerprint } from './request-fingerprint.js';
import { bodyToStore } from './stored-response.js';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export interface IdempotencyScope {
  teamId: string;
  apiKeyId: string;
  method: string;
  path: string;
  key: string;
  /** What makes two requests "the same": the query string and the parsed body (see requestFingerprint). */
  query: string;
  body: unknown;
}

export interface StoredResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
  replayed: boolean;
}

/** What vsf_claim_idempotency_key answers: whether the lock was free, and the stored row if any. */
interface Claim {
  locked: boolean;
  stored?: {
    id: string;
    fingerprint: string;
    response_status: number;
    response_body: unknown;
    response_headers: unknown;
    expires_at: string;
  } | null;
}

/** Every idempotent POST runs these two: prepared once rather than built per request (hot-statement.ts). */
const CLAIM = new HotStatement('select vsf_claim_idempotency_key(?, ?, ?, ?, ?) as claim');
const STORE = new HotStatement(
  `insert into idempotency_keys (id, team_id, api_key_id, method, path, idempotency_key, fingerprint,
     response_status, response_body, response_headers, created_at, expires_at)
   values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);

export function validateIdempotencyKey(key: string): void {
  if (!KEY_PATTERN.test(key)) {
    throw new ApiHttpError(400, 'validation_error', 'Validation failed', [
      { path: 'Idempotency-Key', message: 'Must be 1 to 255 printable ASCII characters without spaces' },
    ]);
  }
}

type Execute = (trx: Knex.Transaction) => Promise<{ status: number; body: unknown; headers: Record<string, string> }>;

/** What a claim allows: running the request (after removing an expired entry of the key), or a replay. */
type Verdict = { run: true; expiredId?: string | undefined } | { run: false; replay: StoredResponse };

/**
 * Runs `execute` at most once per (API key, method, path, Idempotency-Key) within 24 h.
 *
 * The handler's writes and the stored response commit in one transaction, so a crash or an error
 * leaves neither behind and a retry runs afresh; a retry after success replays the stored response.
 * A transaction-scoped advisory lock makes a concurrent duplicate fail fast with 409 instead of
 * running twice, across every server instance sharing the database.
 *
 * With `claimWithFirstWrite`, for handlers that touch nothing outside this database before their first
 * query, the claim travels with that query (a create's insert) instead of before it: two round trips
 * instead of three. A claim that refuses or replays then rolls the insert back with the transaction.
 */
export async function executeIdempotently(
  db: Knex,
  scope: IdempotencyScope,
  now: Date,
  execute: Execute,
  options: { claimWithFirstWrite?: boolean } = {},
): Promise<StoredResponse> {
  const lockKey = `${scope.apiKeyId}|${scope.method}|${scope.path}|${scope.key}`;
  // The lock and the read in one statement (migration 026 says why it is a function), sent with BEGIN.
  const claim = { statement: CLAIM, values: [lockKey, scope.apiKeyId, scope.method, scope.path, scope.key] };
  const run = async (trx: Knex.Transaction, verdict: () => Verdict | undefined, opened: () => Promise<void>) => {
    const response = await execute(trx);
    await opened();
    const expiredId = (verdict() as { expiredId?: string } | undefined)?.expiredId;
    if (expiredId) await trx('idempotency_keys').where({ id: expiredId }).delete();
    return {
      value: { ...response, replayed: false },
      closing: { statement: STORE, values: stored(scope, now, response) },
    };
  };

  if (!options.claimWithFirstWrite) {
    return transactionBetween(db, claim, async (trx, [claimed]) => {
      const verdict = verdictOf(parseJson(claimed?.claim) as Claim, scope, now);
      if (!verdict.run) return { value: verdict.replay };
      return run(
        trx,
        () => verdict,
        async () => {},
      );
    });
  }

  // Settled while the handler waits for its first query: a refusal or a replay fails that query, and what
  // the handler makes of the failure does not matter, since this verdict decides the answer.
  let verdict: Verdict | undefined;
  let refusal: unknown;
  const settle = (rows: Record<string, unknown>[]) => {
    try {
      verdict = verdictOf(parseJson(rows[0]?.claim) as Claim, scope, now);
    } catch (error) {
      refusal = error;
      throw error;
    }
    if (!verdict.run) throw new Error('This Idempotency-Key has a stored response: replaying it');
  };
  try {
    return await transactionOpenedByFirstWrite(db, claim, settle, async (trx, opened) => {
      const result = await run(trx, () => verdict, opened);
      // The handler went on past a failed first query: the claim's answer still stands.
      if (refusal !== undefined || !verdict?.run) throw refusal ?? new Error('replay');
      return result;
    });
  } catch (error) {
    if (refusal !== undefined) throw refusal;
    if (verdict && !verdict.run) return verdict.replay;
    throw error;
  }
}

/** What the claim's row says of the key: in flight elsewhere or reused (thrown), a replay, or go on. */
function verdictOf(claim: Claim, scope: IdempotencyScope, now: Date): Verdict {
  if (!claim.locked) {
    const error = conflict('A request with this Idempotency-Key is still in progress; retry shortly', {
      reason: 'idempotency_in_flight',
    });
    error.headers['Retry-After'] = '1';
    throw error;
  }
  const existing = claim.stored;
  if (!existing) return { run: true };
  if (new Date(existing.expires_at) <= now) return { run: true, expiredId: existing.id };
  if (!fingerprintMatches(existing.fingerprint, scope.query, scope.body)) {
    throw conflict('This Idempotency-Key was already used with a different request; use a new key for a new request', {
      reason: 'idempotency_key_reused',
    });
  }
  return {
    run: false,
    replay: {
      status: existing.response_status,
      body: parseJson(existing.response_body),
      headers: parseJson(existing.response_headers) as Record<string, string>,
      replayed: true,
    },
  };
}

/** The row that records the response, stored in the message that commits with the handler's writes. */
function stored(
  scope: IdempotencyScope,
  now: Date,
  response: { status: number; body: unknown; headers: Record<string, string> },
): unknown[] {
  return [
    randomUUID(),
    scope.teamId,
    scope.apiKeyId,
    scope.method,
    scope.path,
    scope.key,
    requestFingerprint(scope.query, scope.body),
    response.status,
    // A secret shown once is not kept for replays (stored-response.ts).
    JSON.stringify(bodyToStore(response.body)),
    JSON.stringify(response.headers),
    now,
    new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
  ];
}

/** Removes expired entries; called now and then so the table stays small without a scheduler. */
export async function purgeExpiredIdempotencyKeys(db: Knex, now: Date): Promise<number> {
  const deleted = await db('idempotency_keys')
    .whereIn('id', db('idempotency_keys').select('id').where('expires_at', '<=', now).limit(500))
    .delete()
    .returning('id');
  return deleted.length;
}

function parseJson(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}
