import type { Knex } from 'knex';

/**
 * An idempotent request's first step in one round trip: take the key's transaction-scoped advisory lock
 * (without waiting: a concurrent duplicate is told so) and read what is stored under the key. One
 * statement could not do both: its snapshot would predate the lock, and miss a response committed by
 * the request that held it a moment before. A volatile function's statements each take a fresh snapshot,
 * so the read here sees every response committed before the lock was granted.
 * Returns `{"locked": false}`, or `{"locked": true, "stored": <the idempotency_keys row or null>}`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function vsf_claim_idempotency_key(lock_key text, claim_api_key_id uuid, claim_method text,
        claim_path text, claim_key text) returns jsonb language plpgsql volatile as $$
    declare
      stored jsonb;
    begin
      if not pg_try_advisory_xact_lock(hashtextextended(lock_key, 0)) then
        return jsonb_build_object('locked', false);
      end if;
      select to_jsonb(k) into stored from idempotency_keys k
        where k.api_key_id = claim_api_key_id and k.method = claim_method and k.path = claim_path
          and k.idempotency_key = claim_key;
      return jsonb_build_object('locked', true, 'stored', stored);
    end $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists vsf_claim_idempotency_key(text, uuid, text, text, text)');
}
