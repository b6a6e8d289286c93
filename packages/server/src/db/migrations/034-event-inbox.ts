import type { Knex } from 'knex';
import { recordEventFunctionNotifying, TEAM_EVENTS_CHANNEL } from './031-team-event-notify.js';
import { RECORDED_CHANGE } from './record-event-function.js';

/**
 * A team's writes no longer wait on each other to be recorded. Under 024 each commit that recorded an event
 * locked the team's feed head row and held it through the commit's WAL flush, so one team's commits ran one
 * at a time: 32 connections inserting one team's cars made ~1 800 commits/s on a machine that made ~9 000
 * with the trigger off (issue #34).
 *
 * Now a write appends its event to `team_event_inbox` (no shared row: writers never wait on each other),
 * and cursors are handed out later, by `vsf_sequence_team_events`, in a short transaction of its own that
 * locks the head, moves the team's committed inbox rows into `team_events` in arrival order and moves the
 * head. Readers of the feed call it before reading (and each server instance drains the inbox now and then,
 * services/event-inbox-drain.ts): cursors stay in commit order, since only committed events are ever
 * numbered and numbering is one transaction at a time, so a reader that has seen cursor n has seen every
 * event below it.
 * A record's successive changes keep their order: the second waits for the first's row lock, so it takes
 * its inbox id after the first has committed.
 *
 * Announcing (031) keeps its guarantee with a lock each writer takes shared and a lease taker exclusively
 * (`vsf_announce_team_events`): a commit either sees the lease and notifies, or has committed before the
 * lease was taken, and the lease taker's own sequencing, after it, numbers it.
 */
export const EVENT_LOCK_CLASS = 1_987_274_341;
// The SQL below is exported so that migrationsFingerprint() (index.ts) hashes it: cached test databases
// are made again when it changes.

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table team_event_inbox (
      id bigserial primary key,
      team_id uuid not null,
      table_name text not null,
      action text not null,
      record_id uuid not null,
      record jsonb,
      created_at timestamptz not null default clock_timestamp()
    )`);
  await knex.raw('create index team_event_inbox_team_idx on team_event_inbox (team_id, id)');
  await knex.raw(RECORD_INTO_INBOX);
  await knex.raw(SEQUENCE_TEAM);
  await knex.raw(SEQUENCE_TEAMS);
  await knex.raw(ANNOUNCE_TEAM);
  await knex.raw(WATCH_TEAM);
}

export async function down(knex: Knex): Promise<void> {
  // Whatever waits in the inbox is numbered first: 031's trigger writes the feed directly again.
  await knex.raw('select vsf_sequence_events(null)');
  await knex.raw(recordEventFunctionNotifying(true));
  for (const fn of [
    'vsf_watch_team_events(uuid, double precision)',
    'vsf_announce_team_events(uuid, double precision)',
    'vsf_sequence_events(uuid[])',
    'vsf_sequence_team_events(uuid)',
  ])
    await knex.raw(`drop function if exists ${fn}`);
  await knex.schema.dropTableIfExists('team_event_inbox');
}

const LOCK = (mode: 'shared' | 'exclusive', team: string) =>
  `perform pg_advisory_xact_lock${mode === 'shared' ? '_shared' : ''}(${EVENT_LOCK_CLASS}, hashtext(${team}::text));`;

/** 024's trigger function, writing to the inbox; the lease is read after the shared lock is held. */
export const RECORD_INTO_INBOX = `
    create or replace function vsf_record_event() returns trigger language plpgsql as $$
    declare
      written jsonb;
      act text;
      team uuid;
      watched timestamptz;
    begin${RECORDED_CHANGE}
      ${LOCK('shared', 'team')}
      insert into team_event_inbox (team_id, table_name, action, record_id, record)
        values (team, tg_table_name, act, (written->>'id')::uuid, written);
      select h.watched_until into watched from team_event_heads h where h.team_id = team;
      if watched > now() then perform pg_notify('${TEAM_EVENTS_CHANNEL}', team::text); end if;
      return null;
    end $$`;

/**
 * Numbers the team's committed inbox rows and answers its head. The delete runs as a statement of its own
 * after the head is locked, so its snapshot sees every row the sequencing before it moved. Writes nothing
 * when the inbox holds none of the team's rows. The shared lock comes before the head's, as in a lease
 * taker (exclusive, then the head): a transaction that numbers and then writes (its trigger asks for the
 * shared lock at commit) would otherwise deadlock with a lease taker waiting for the head it holds.
 */
export const SEQUENCE_TEAM = `
    create function vsf_sequence_team_events(team uuid) returns table (last_cursor bigint, pruned_through bigint)
    language plpgsql as $$
    declare
      head bigint;
      moved bigint;
    begin
      if exists (select 1 from team_event_inbox i where i.team_id = team) then
        ${LOCK('shared', 'team')}
        insert into team_event_heads as h (team_id) values (team) on conflict (team_id) do nothing;
        select h.last_cursor into head from team_event_heads h where h.team_id = team for update;
        with batch as (delete from team_event_inbox i where i.team_id = team returning i.*)
        insert into team_events (team_id, cursor, table_name, action, record_id, record, created_at)
          select b.team_id, head + row_number() over (order by b.id), b.table_name, b.action, b.record_id,
            b.record, b.created_at
          from batch b;
        get diagnostics moved = row_count;
        if moved > 0 then
          update team_event_heads h set last_cursor = head + moved where h.team_id = team;
        end if;
      end if;
      return query select h.last_cursor, h.pruned_through from team_event_heads h where h.team_id = team;
    end $$`;

/**
 * Sequences the teams of `teams` (every team, when null) that have inbox rows, in team order. Every team's are
 * found over the inbox's index, one team id to the next, not by a scan of its heap: a queue's heap holds
 * the dead rows of every event numbered since its last vacuum.
 */
export const SEQUENCE_TEAMS = `
    create function vsf_sequence_events(teams uuid[]) returns integer language plpgsql as $$
    declare
      team uuid;
      done integer := 0;
    begin
      for team in
        with recursive waiting as (
          (select i.team_id from team_event_inbox i where teams is null order by i.team_id limit 1)
          union all
          select (select i.team_id from team_event_inbox i where i.team_id > w.team_id order by i.team_id limit 1)
          from waiting w where w.team_id is not null
        )
        select w.team_id from waiting w where w.team_id is not null
        union all
        select t.id from (select distinct unnest(teams) as id) t
        where exists (select 1 from team_event_inbox i where i.team_id = t.id)
        order by 1
      loop
        perform vsf_sequence_team_events(team);
        done := done + 1;
      end loop;
      return done;
    end $$`;

/**
 * Has the team's commits announced for `secs` from now (031's lease, never shortened). The exclusive lock
 * waits for every commit under way that did not see the lease, and holds back those that start until the
 * lease has committed, which they then see.
 */
export const ANNOUNCE_TEAM = `
    create function vsf_announce_team_events(team uuid, secs double precision) returns void
    language plpgsql as $$
    begin
      ${LOCK('exclusive', 'team')}
      insert into team_event_heads as h (team_id, watched_until) values (team, now() + make_interval(secs => secs))
        on conflict (team_id) do update set watched_until = greatest(h.watched_until, excluded.watched_until);
    end $$`;

/** The lease, then the head: every commit the lease does not announce is numbered by then. */
export const WATCH_TEAM = `
    create function vsf_watch_team_events(team uuid, secs double precision)
    returns table (last_cursor bigint, pruned_through bigint) language plpgsql as $$
    begin
      perform vsf_announce_team_events(team, secs);
      return query select * from vsf_sequence_team_events(team);
    end $$`;
