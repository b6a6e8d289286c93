import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { ApiHttpError, conflict } from '../errors/api-http-error.js';
import { transactionBetween } from '../repositories/bracketed-transaction.js';
import { HotStatement } from '../repositories/hot-statement.js';
import { fingerprintMatches, requestFingerprint } from './request-fingerprint.js';

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

/**
 * Runs `execute` at most once per (API key, method, path, Idempotency-Key) within 24 h.
 *
 * The handler's writes and the stored response commit in one transaction, so a crash or an error
 * leaves neither behind and a retry runs afresh; a retry after success replays the stored response.
 * A transaction-scoped advisory lock makes a concurrent duplicate fail fast with 409 instead of
 * running twice, across every server instance sharing the database.
 */
export async function executeIdempotently(
  db: Knex,
  scope: IdempotencyScope,
  now: Date,
  execute: (trx: Knex.Transaction) => Promise<{ status: number; body: unknown; headers: Record<string, string> }>,
): Promise<StoredResponse> {
  const lockKey = `${scope.apiKeyId}|${scope.method}|${scope.path}|${scope.key}`;
  // The lock and the read in one statement (migration 026 says why it is a function), sent with BEGIN.
  const claimValues = [lockKey, scope.apiKeyId, scope.method, scope.path, scope.key];
  return transactionBetween(db, { statement: CLAIM, values: claimValues }, async (trx, [claimed]) => {
    const claim = parseJson(claimed?.claim) as Claim;
    if (!claim.locked) {
      const error = conflict('A request with this Idempotency-Key is still in progress; retry shortly', {
        reason: 'idempotency_in_flight',
      });
      error.headers['Retry-After'] = '1';
      throw error;
    }

    const existing = claim.stored;
    if (existing && new Date(existing.expires_at) > now) {
      if (!fingerprintMatches(existing.fingerprint, scope.query, scope.body)) {
        throw conflict(
          'This Idempotency-Key was already used with a different request; use a new key for a new request',
          {
            reason: 'idempotency_key_reused',
          },
        );
      }
      const replay = {
        status: existing.response_status,
        body: parseJson(existing.response_body),
        headers: parseJson(existing.response_headers) as Record<string, string>,
        replayed: true,
      };
      return { value: replay };
    }
    if (existing) await trx('idempotency_keys').where({ id: existing.id }).delete();

    const response = await execute(trx);
    // Stored in the message that commits, so the response and the handler's writes land together or not at all.
    const stored = [
      randomUUID(),
      scope.teamId,
      scope.apiKeyId,
      scope.method,
      scope.path,
      scope.key,
      requestFingerprint(scope.query, scope.body),
      response.status,
      JSON.stringify(response.body),
      JSON.stringify(response.headers),
      now,
      new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
    ];
    return { value: { ...response, replayed: false }, closing: { statement: STORE, values: stored } };
  });
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
