/** What 031 adds to vsf_record_event(), each piece at its own place in the function. */
export interface RecordEventAdditions {
  /** A declaration after `next_cursor bigint;`. */
  declare: string;
  /** Columns after `returning last_cursor`, and the variables after `into next_cursor` they go into. */
  returning: string;
  into: string;
  /** A statement after the event's insert, before `return null;`. */
  after: string;
}

/**
 * The start of vsf_record_event()'s body, shared by every version of it: the row as written (`written`), the
 * action (`act`) and its team (`team`), or no event when that team no longer exists. Its variables are
 * declared by the function.
 */
export const RECORDED_CHANGE = `
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
      end if;`;

/**
 * The SQL that makes vsf_record_event(), the trigger function that appends each write of a team's record to
 * the team's feed (024; see there). 031 makes it again with `additions` (its lease check and notify, or, going
 * down, none). Shipped migrations must send the SQL they always sent, byte for byte: without `additions` the
 * function is 024's as written; with them each addition keeps its own line, blank when it is ''.
 */
export function recordEventFunction(create: 'create' | 'create or replace', additions?: RecordEventAdditions): string {
  const line = (text: string | undefined) => (text === undefined ? '' : `\n      ${text}`);
  return `
    ${create} function vsf_record_event() returns trigger language plpgsql as $$
    declare
      written jsonb;
      act text;
      team uuid;
      next_cursor bigint;${line(additions?.declare)}
    begin${RECORDED_CHANGE}
      insert into team_event_heads as h (team_id, last_cursor) values (team, 1)
        on conflict (team_id) do update set last_cursor = h.last_cursor + 1
        returning last_cursor${additions?.returning ?? ''} into next_cursor${additions?.into ?? ''};
      insert into team_events (team_id, cursor, table_name, action, record_id, record)
        values (team, next_cursor, tg_table_name, act, (written->>'id')::uuid, written);${line(additions?.after)}
      return null;
    end $$`;
}
