import type { Knex } from 'knex';
import { createNotifyFunction, dropNotifyFunction, type NotifyFunction } from './notify-triggers.js';

/**
 * Every change that can alter an authentication answer (a key inserted, revoked, expired, re-scoped or
 * deleted; a team's API switch or a team deleted) sends `pg_notify('vsf_key_changes', 'key:<prefix>' |
 * 'team:<id>')` at commit. Each server instance LISTENs and drops the key from its verified-key cache. A
 * trigger rather than the services, so changes made by any instance or by hand in SQL are seen too.
 * Every key update notifies, `last_used_at` included: that write happens at most once a minute per key,
 * and keeping the cached row exactly the stored one costs one extra lookup then.
 */
export const KEY_CHANGE: NotifyFunction = {
  name: 'vsf_notify_key_change',
  body: `
      if tg_table_name = 'api_keys' then
        if tg_op = 'DELETE' then
          perform pg_notify('vsf_key_changes', 'key:' || old.prefix);
          return old;
        end if;
        if tg_op = 'UPDATE' and new.prefix <> old.prefix then
          perform pg_notify('vsf_key_changes', 'key:' || old.prefix);
        end if;
        perform pg_notify('vsf_key_changes', 'key:' || new.prefix);
        return new;
      end if;
      if tg_op = 'DELETE' then
        perform pg_notify('vsf_key_changes', 'team:' || old.id);
        return old;
      end if;
      if new.api_enabled is distinct from old.api_enabled then
        perform pg_notify('vsf_key_changes', 'team:' || new.id);
      end if;
      return new;`,
  triggers: [
    { name: 'vsf_api_keys_notify', table: 'api_keys', after: 'insert or update or delete' },
    { name: 'vsf_teams_notify', table: 'teams', after: 'update or delete' },
  ],
};

export async function up(knex: Knex): Promise<void> {
  await createNotifyFunction(knex, KEY_CHANGE);
}

export async function down(knex: Knex): Promise<void> {
  await dropNotifyFunction(knex, KEY_CHANGE);
}
