import type { Knex } from 'knex';
import { recordEventFunction } from './record-event-function.js';

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
  await knex.raw(recordEventFunctionNotifying(true));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(recordEventFunctionNotifying(false));
  await knex.raw('alter table team_event_heads drop column if exists watched_until');
}

/** 024's function, with the lease read and the notify (`notify`), or as 024 made it (going down). */
export function recordEventFunctionNotifying(notify: boolean): string {
  return recordEventFunction('create or replace', {
    declare: notify ? 'watched timestamptz;' : '',
    returning: notify ? ', watched_until' : '',
    into: notify ? ', watched' : '',
    after: notify ? `if watched > now() then perform pg_notify('${TEAM_EVENTS_CHANNEL}', team::text); end if;` : '',
  });
}
