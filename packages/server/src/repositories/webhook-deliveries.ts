import { randomUUID } from 'node:crypto';
import type { Executor } from './team-scoped-table.js';

/**
 * The dispatcher's queries (migration 025). They span every team: the dispatcher serves all of them, and
 * each row it reads or writes is reached through a webhook's own id and team.
 */

/** An enabled endpoint whose team's feed has moved past its cursor. */
export interface EndpointBehind {
  id: string;
  teamId: string;
  eventTypes: string[];
  readScopes: string[];
  cursor: number;
}

const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

/** `teams`: only these teams' endpoints; every team's when absent. */
export async function endpointsBehind(db: Executor, teams?: ReadonlySet<string>): Promise<EndpointBehind[]> {
  const query = db('webhooks as w')
    .join('team_event_heads as h', 'h.team_id', 'w.team_id')
    .where('w.enabled', true)
    .whereRaw('h.last_cursor > w.cursor')
    .select('w.id', 'w.team_id', 'w.event_types', 'w.read_scopes', 'w.cursor');
  if (teams) query.whereIn('w.team_id', [...teams]);
  const rows = (await query) as Record<string, unknown>[];
  return rows.map((row) => ({
    id: String(row.id),
    teamId: String(row.team_id),
    eventTypes: json<string[]>(row.event_types),
    readScopes: json<string[]>(row.read_scopes),
    cursor: Number(row.cursor),
  }));
}

export interface NewDelivery {
  teamId: string;
  webhookId: string;
  eventId: string;
  eventCursor: number;
  eventType: string;
  payload: string;
}

/** Inserts the deliveries not already there: one per (endpoint, event), whichever instance got there first. */
export async function insertDeliveries(db: Executor, deliveries: readonly NewDelivery[], now: Date): Promise<number> {
  if (deliveries.length === 0) return 0;
  const inserted = await db('webhook_deliveries')
    .insert(
      deliveries.map((d) => ({
        id: randomUUID(),
        team_id: d.teamId,
        webhook_id: d.webhookId,
        event_id: d.eventId,
        event_cursor: d.eventCursor,
        event_type: d.eventType,
        payload: d.payload,
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflict(['webhook_id', 'event_id'])
    .ignore()
    .returning('id');
  return inserted.length;
}

/** Moves an endpoint's cursor forward only: instances fanning out concurrently never move it back. */
export async function advanceCursor(db: Executor, webhookId: string, cursor: number): Promise<void> {
  await db('webhooks')
    .where({ id: webhookId })
    .update({ cursor: db.raw('greatest(cursor, ?)', [cursor]) });
}

/** A delivery one instance holds the lease of, with what it needs to send it. */
export interface ClaimedDelivery {
  id: string;
  teamId: string;
  webhookId: string;
  eventId: string;
  payload: string;
  attempts: number;
  firstAttemptAt: Date | null;
  url: string;
  secret: string;
  leaseToken: string;
}

/**
 * Leases up to `limit` due deliveries of enabled endpoints until `leaseUntil`, in one statement. `SKIP
 * LOCKED` lets instances claiming at once take different rows without waiting on each other, and the lease
 * keeps a row theirs while the POST runs outside any transaction; an instance that dies mid-attempt loses
 * it when it lapses, and another retries the delivery.
 */
export async function claimDueDeliveries(
  db: Executor,
  options: { now: Date; leaseUntil: Date; limit: number; teams?: ReadonlySet<string> | undefined },
): Promise<ClaimedDelivery[]> {
  const leaseToken = randomUUID();
  const teams = options.teams ? [...options.teams] : undefined;
  if (teams?.length === 0) return [];
  const { rows } = (await db.raw(
    `update webhook_deliveries d set lease_until = ?, lease_token = ?
     from webhooks w
     where w.id = d.webhook_id and d.id in (
       select due.id from webhook_deliveries due join webhooks hook on hook.id = due.webhook_id
       where due.status = 'pending' and due.next_attempt_at <= ?
         and (due.lease_until is null or due.lease_until < ?) and hook.enabled
         ${teams ? `and due.team_id in (${teams.map(() => '?').join(', ')})` : ''}
       order by due.next_attempt_at
       limit ?
       for update of due skip locked)
     returning d.id, d.team_id, d.webhook_id, d.event_id, d.payload, d.attempts, d.first_attempt_at, w.url, w.secret`,
    [options.leaseUntil, leaseToken, options.now, options.now, ...(teams ?? []), options.limit],
  )) as { rows: Record<string, unknown>[] };
  return rows.map((row) => ({
    id: String(row.id),
    teamId: String(row.team_id),
    webhookId: String(row.webhook_id),
    eventId: String(row.event_id),
    payload: String(row.payload),
    attempts: Number(row.attempts),
    firstAttemptAt: row.first_attempt_at ? new Date(row.first_attempt_at as string | Date) : null,
    url: String(row.url),
    secret: String(row.secret),
    leaseToken,
  }));
}

export interface AttemptRecord {
  status: 'pending' | 'succeeded' | 'failed';
  responseStatus: number | null;
  error: string | null;
  nextAttemptAt: Date | null;
  firstAttemptAt: Date;
}

/** Writes an attempt's outcome and ends the lease; false when the lease was lost (another instance owns it). */
export async function recordAttempt(
  db: Executor,
  claimed: ClaimedDelivery,
  attempt: AttemptRecord,
  now: Date,
): Promise<boolean> {
  const updated = await db('webhook_deliveries')
    .where({ id: claimed.id, lease_token: claimed.leaseToken })
    .update({
      status: attempt.status,
      attempts: db.raw('attempts + 1'),
      last_response_status: attempt.responseStatus,
      last_error: attempt.error,
      next_attempt_at: attempt.nextAttemptAt,
      first_attempt_at: db.raw('coalesce(first_attempt_at, ?)', [attempt.firstAttemptAt]),
      lease_until: null,
      lease_token: null,
      updated_at: now,
    })
    .returning('id');
  return updated.length > 0;
}

/** Counts a failed attempt against its endpoint (a success resets it); the failures in a row now. */
export async function countEndpointAttempt(db: Executor, webhookId: string, ok: boolean): Promise<number> {
  if (ok) {
    // Most successes follow successes: write only when there is a streak to end.
    await db('webhooks')
      .where({ id: webhookId })
      .where('consecutive_failures', '>', 0)
      .update({ consecutive_failures: 0 });
    return 0;
  }
  const [row] = (await db('webhooks')
    .where({ id: webhookId })
    .update({ consecutive_failures: db.raw('consecutive_failures + 1') })
    .returning('consecutive_failures')) as { consecutive_failures: number }[];
  return Number(row?.consecutive_failures ?? 0);
}

/** Disables an endpoint that is enabled, saying why; pending deliveries wait until it is enabled again. */
export async function disableEndpoint(db: Executor, webhookId: string, reason: string, now: Date): Promise<boolean> {
  const updated = await db('webhooks')
    .where({ id: webhookId, enabled: true })
    .update({ enabled: false, disabled_reason: reason, updated_at: now })
    .returning('id');
  return updated.length > 0;
}
