import type { Knex } from 'knex';

/** The channel a watched team's commits are announced on; the payload is the team's id. */
export const TEAM_EVENTS_CHANNEL = 'vsf_team_events';

/**
 * Waiting feed requests and the webhook dispatcher wake on commit instead of reading the feed's head on a
 * timer: a commit that records events of a team someone watches sends `pg_notify('vsf_team_events',
 * '<team id>')`, which every instance's one LISTEN connection hears.
 *
 * Only watched teams' commits notify: a NOTIFY serializes the commits that send one (PostgreSQL takes one
 * lock per database for them, to queue notifications in commit order), which cut a write-heavy load to a
 * third of its rate when every commit sent one. `team_event_heads.watched_until` is the lease: a waiting
 * request or the dispatcher sets it (the same row the trigger updates at commit, so the two serialize on
 * its lock: either the commit sees the lease and notifies, or the waiter's statement, blocked behind it,
 * returns the head that commit moved). The function is 024's, with the notify at the end; `now()` is the
 * writing transaction's start, which errs towards notifying.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table team_event_heads add column watched_until timestamptz');
  await knex.raw(recordEventFunction(true));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(recordEventFunction(false));
  await knex.raw('alter table team_event_heads drop column if exists watched_until');
}

function recordEventFunction(notify: boolean): string {
  return `
    create or replace function vsf_record_event() returns trigger language plpgsql as $$
    declare
      written jsonb;
      act text;
      team uuid;
      next_cursor bigint;
      ${notify ? 'watched timestamptz;' : ''}
    begin
      if tg_op = 'DELETE' then
        written := to_jsonb(old);
        act := 'deleted';
      else
        written := to_jsonb(new);
        act := case
          when tg_op = 'INSERT' then 'created'
          when written->>'deleted_at' is not null and to_jsonb(old)->>'deleted_at' is null then 'soft_deleted'
          else 'updated'
        end;
      end if;
      team := (written->>'team_id')::uuid;
      if not exists (select 1 from teams where id = team) then
        return null;
      end if;
      insert into team_event_heads as h (team_id, last_cursor) values (team, 1)
        on conflict (team_id) do update set last_cursor = h.last_cursor + 1
        returning last_cursor${notify ? ', watched_until' : ''} into next_cursor${notify ? ', watched' : ''};
      insert into team_events (team_id, cursor, table_name, action, record_id, record)
        values (team, next_cursor, tg_table_name, act, (written->>'id')::uuid, written);
      ${notify ? `if watched > now() then perform pg_notify('${TEAM_EVENTS_CHANNEL}', team::text); end if;` : ''}
      return null;
    end $$`;
}
