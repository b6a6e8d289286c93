import type { Knex } from 'knex';
import { KEY_CHANGE } from './022-key-change-notify.js';
import { replaceNotifyBody } from './notify-triggers.js';

/**
 * A key's `last_used_at`, written at most once a minute per key, no longer notifies (as a grant's never did,
 * 032): nothing an authentication answers depends on it, and each instance's cache records its own stamps.
 * Under 022 every stamp evicted the key on every instance, which then read it again: with many keys in idle
 * use (followers' long polls), a credentials read per stamp and instance (issue #34). Any other change of a
 * key notifies as before.
 */
export const QUIET_KEY_USE: Pick<typeof KEY_CHANGE, 'name' | 'body'> = {
  name: KEY_CHANGE.name,
  body: `
      if tg_table_name = 'api_keys' and tg_op = 'UPDATE'
        and (to_jsonb(new) - 'last_used_at') = (to_jsonb(old) - 'last_used_at') then
        return new;
      end if;${KEY_CHANGE.body}`,
};

export async function up(knex: Knex): Promise<void> {
  await replaceNotifyBody(knex, QUIET_KEY_USE);
}

export async function down(knex: Knex): Promise<void> {
  await replaceNotifyBody(knex, KEY_CHANGE);
}
