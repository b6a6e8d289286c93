import type { Knex } from 'knex';

/**
 * The assistant connector's access tokens are kept in the verified-credential cache beside API keys
 * (verified-key-cache.ts), so every change that can alter a token's answer notifies on 022's channel:
 * a grant revoked, re-scoped or deleted (`grant:<id>`), a token row deleted (`grant:<its grant>`), and a
 * member's scopes or password changed or the member deleted (`team:<id>`: rare, and it narrows every grant
 * of that member at once). A grant's `last_used_at`, written at most once a minute, does not notify: the
 * cache records it itself. The team's API switch already notifies (022).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function vsf_notify_grant_change() returns trigger language plpgsql as $$
    begin
      if tg_table_name = 'oauth_grants' then
        if tg_op = 'DELETE' then
          perform pg_notify('vsf_key_changes', 'grant:' || old.id);
          return old;
        end if;
        if new.revoked_at is distinct from old.revoked_at or new.scopes::text is distinct from old.scopes::text
          or new.resource is distinct from old.resource or new.member_id is distinct from old.member_id then
          perform pg_notify('vsf_key_changes', 'grant:' || new.id);
        end if;
        return new;
      end if;
      if tg_table_name = 'oauth_tokens' then
        perform pg_notify('vsf_key_changes', 'grant:' || old.grant_id);
        return old;
      end if;
      if tg_op = 'DELETE' then
        perform pg_notify('vsf_key_changes', 'team:' || old.team_id);
        return old;
      end if;
      if new.scopes::text is distinct from old.scopes::text or new.password_hash is distinct from old.password_hash then
        perform pg_notify('vsf_key_changes', 'team:' || new.team_id);
      end if;
      return new;
    end $$`);
  await knex.raw(`create trigger vsf_oauth_grants_notify after update or delete on oauth_grants
    for each row execute function vsf_notify_grant_change()`);
  await knex.raw(`create trigger vsf_oauth_tokens_notify after delete on oauth_tokens
    for each row execute function vsf_notify_grant_change()`);
  await knex.raw(`create trigger vsf_team_members_notify after update or delete on team_members
    for each row execute function vsf_notify_grant_change()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists vsf_oauth_grants_notify on oauth_grants');
  await knex.raw('drop trigger if exists vsf_oauth_tokens_notify on oauth_tokens');
  await knex.raw('drop trigger if exists vsf_team_members_notify on team_members');
  await knex.raw('drop function if exists vsf_notify_grant_change()');
}
