import type { Knex } from 'knex';

/**
 * Every change that can alter an authentication answer (a key inserted, revoked, expired, re-scoped or
 * deleted; a team's API switch or a team deleted) sends `pg_notify('vsf_key_changes', 'key:<prefix>' |
 * 'team:<id>')` at commit. Each server instance LISTENs and drops the key from its verified-key cache. A
 * trigger rather than the services, so changes made by any instance or by hand in SQL are seen too.
 * Every key update notifies, `last_used_at` included: that write happens at most once a minute per key,
 * and keeping the cached row exactly the stored one costs one extra lookup then.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function vsf_notify_key_change() returns trigger language plpgsql as $$
    begin
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
      return new;
    end $$`);
  await knex.raw(`create trigger vsf_api_keys_notify after insert or update or delete on api_keys
    for each row execute function vsf_notify_key_change()`);
  await knex.raw(`create trigger vsf_teams_notify after update or delete on teams
    for each row execute function vsf_notify_key_change()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists vsf_api_keys_notify on api_keys');
  await knex.raw('drop trigger if exists vsf_teams_notify on teams');
  await knex.raw('drop function if exists vsf_notify_key_change()');
}
