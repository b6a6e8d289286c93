import type { Knex } from 'knex';
import { createNotifyFunction, dropNotifyFunction, type NotifyFunction } from './notify-triggers.js';

/**
 * The assistant connector's access tokens are kept in the verified-credential cache beside API keys
 * (verified-key-cache.ts), so every change that can alter a token's answer notifies on 022's channel:
 * a grant revoked, re-scoped or deleted (`grant:<id>`), a token row deleted (`grant:<its grant>`), and a
 * member's scopes or password changed or the member deleted (`team:<id>`: rare, and it narrows every grant
 * of that member at once). A grant's `last_used_at`, written at most once a minute, does not notify: the
 * cache records it itself. The team's API switch already notifies (022).
 */
export const GRANT_CHANGE: NotifyFunction = {
  name: 'vsf_notify_grant_change',
  body: `
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
      return new;`,
  triggers: [
    { name: 'vsf_oauth_grants_notify', table: 'oauth_grants', after: 'update or delete' },
    { name: 'vsf_oauth_tokens_notify', table: 'oauth_tokens', after: 'delete' },
    { name: 'vsf_team_members_notify', table: 'team_members', after: 'update or delete' },
  ],
};

export async function up(knex: Knex): Promise<void> {
  await createNotifyFunction(knex, GRANT_CHANGE);
}

export async function down(knex: Knex): Promise<void> {
  await dropNotifyFunction(knex, GRANT_CHANGE);
}
