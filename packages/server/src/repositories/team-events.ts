import type { Executor } from './team-scoped-table.js';

/** One stored event (migration 024): the row a change wrote, as `to_jsonb` gave it. */
export interface StoredEvent {
  id: string;
  cursor: number;
  tableName: string;
  action: 'created' | 'updated' | 'soft_deleted' | 'deleted';
  recordId: string;
  /** The row as the change wrote it; for a delete, as it was. */
  record: Record<string, unknown> | null;
  createdAt: Date;
}

/** Where a team's feed stands: its last cursor, and the last one retention removed. */
export interface FeedHead {
  lastCursor: number;
  prunedThrough: number;
}

type HeadRow = { last_cursor: string | number | null; pruned_through: string | number | null };

function headOf(rows: HeadRow[]): FeedHead {
  const row = rows[0];
  return { lastCursor: Number(row?.last_cursor ?? 0), prunedThrough: Number(row?.pruned_through ?? 0) };
}

/**
 * The team's feed position, once the events its committed writes left in the inbox are numbered (migration
 * 034); a team that never changed anything is at 0.
 */
export async function feedHead(db: Executor, teamId: string): Promise<FeedHead> {
  const { rows } = (await db.raw('select * from vsf_sequence_team_events(?)', [teamId])) as { rows: HeadRow[] };
  return headOf(rows);
}

/**
 * Announces the team's commits for `seconds` from now (migration 031's lease, never shortened), then reads its
 * head as `feedHead` does: a commit either sees the lease and notifies, or is numbered in that head (034).
 */
export async function watchFeed(db: Executor, teamId: string, seconds: number): Promise<FeedHead> {
  const { rows } = (await db.raw('select * from vsf_watch_team_events(?, ?)', [teamId, seconds])) as {
    rows: HeadRow[];
  };
  return headOf(rows);
}

/** Ids as one PostgreSQL array literal, bound as one value (`?::uuid[]`): knex spreads a JS array into a list. */
export const uuidArrayLiteral = (ids: readonly string[]): string => `{${ids.join(',')}}`;

/**
 * Numbers the events waiting in the inbox of the teams of `teams` (every team's when absent), so the feed's
 * table and heads hold them; answers how many teams had some.
 */
export async function sequenceEvents(db: Executor, teams?: readonly string[]): Promise<number> {
  if (teams?.length === 0) return 0;
  const only = teams ? uuidArrayLiteral(teams) : null;
  const { rows } = (await db.raw('select vsf_sequence_events(?::uuid[]) as teams', [only])) as {
    rows: { teams: number }[];
  };
  return Number(rows[0]?.teams ?? 0);
}

/**
 * The team's events after `after` up to `through`, of the given tables only, in cursor order. `through` is
 * a head read before: every event at or below it has committed (cursors are given to committed events
 * only, 034), so a page never skips one that commits later.
 */
export async function eventsAfter(
  db: Executor,
  teamId: string,
  options: { after: number; through: number; tables: readonly string[]; limit: number },
): Promise<StoredEvent[]> {
  if (options.tables.length === 0 || options.limit === 0) return [];
  const rows = (await db('team_events')
    .where('team_id', teamId)
    .where('cursor', '>', options.after)
    .where('cursor', '<=', options.through)
    .whereIn('table_name', options.tables)
    .orderBy('cursor')
    .limit(options.limit)
    .select('id', 'cursor', 'table_name', 'action', 'record_id', 'record', 'created_at')) as Record<string, unknown>[];
  return rows.map((row) => ({
    id: String(row.id),
    cursor: Number(row.cursor),
    tableName: String(row.table_name),
    action: row.action as StoredEvent['action'],
    recordId: String(row.record_id),
    record: (typeof row.record === 'string' ? JSON.parse(row.record) : row.record) as Record<string, unknown> | null,
    createdAt: row.created_at instanceof Date ? row.created_at : new Date(String(row.created_at)),
  }));
}

/**
 * Deletes every team's events older than `before` and remembers, per team, the last cursor removed, so a
 * reader asking for an older one is told it is gone instead of silently skipping events.
 */
export async function pruneEvents(db: Executor, before: Date): Promise<number> {
  const result = (await db.raw(
    `with gone as (delete from team_events where created_at < ? returning team_id, cursor),
          last as (select team_id, max(cursor) as through, count(*) as removed from gone group by team_id),
          moved as (update team_event_heads h set pruned_through = greatest(h.pruned_through, last.through)
                    from last where h.team_id = last.team_id returning 1)
     select coalesce(sum(removed), 0) as removed from last`,
    [before],
  )) as { rows: { removed: string | number }[] };
  return Number(result.rows[0]?.removed ?? 0);
}
