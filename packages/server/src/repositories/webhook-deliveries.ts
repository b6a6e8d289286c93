import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { uuidArrayLiteral } from './team-events.js';
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
  /** The current scopes of the key it acts for; null when it acts for none (see `WebhookRow.apiKeyId`). */
  keyScopes: string[] | null;
  cursor: number;
}

const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

/**
 * Where an endpoint may be sent anything now: enabled, its team's API on (while off, deliveries pause and
 * resume where they stopped) and the key it acts for neither revoked nor expired. `w`, `t`, `k`: the
 * endpoint, its team and its key (left joined: an endpoint may act for none).
 */
function whereDeliverable(query: Knex.QueryBuilder, now: Date): Knex.QueryBuilder {
  return query
    .where('w.enabled', true)
    .where('t.api_enabled', true)
    .where((q) =>
      q
        .whereNull('w.api_key_id')
        .orWhere((key) =>
          key.whereNull('k.revoked_at').andWhere((e) => e.whereNull('k.expires_at').orWhere('k.expires_at', '>', now)),
        ),
    );
}

/**
 * Numbers the events waiting in the inbox (migration 034) of the teams with an enabled endpoint (of `teams`,
 * when given): a head moves only then, and `endpointsBehind` compares endpoints with heads.
 */
export async function numberHookedTeams(db: Executor, teams?: ReadonlySet<string>): Promise<void> {
  const only = teams ? [...teams] : undefined;
  if (only?.length === 0) return;
  await db.raw(
    `select vsf_sequence_events(array(select distinct team_id from webhooks where enabled${only ? ' and team_id = any(?::uuid[])' : ''}))`,
    only ? [uuidArrayLiteral(only)] : [],
  );
}

/** `teams`: only these teams' endpoints; every team's when absent. */
export async function endpointsBehind(db: Executor, now: Date, teams?: ReadonlySet<string>): Promise<EndpointBehind[]> {
  const query = db('webhooks as w')
    .join('team_event_heads as h', 'h.team_id', 'w.team_id')
    .join('teams as t', 't.id', 'w.team_id')
    .leftJoin('api_keys as k', 'k.id', 'w.api_key_id')
    .whereRaw('h.last_cursor > w.cursor')
    .select(
      'w.id',
      'w.team_id',
      'w.event_types',
      'w.read_scopes',
      'w.cursor',
      'w.api_key_id',
      'k.scopes as key_scopes',
    );
  whereDeliverable(query, now);
  if (teams) query.whereIn('w.team_id', [...teams]);
  const rows = (await query) as Record<string, unknown>[];
  return rows.map((row) => ({
    id: String(row.id),
    teamId: String(row.team_id),
    eventTypes: json<string[]>(row.event_types),
    readScopes: json<string[]>(row.read_scopes),
    keyScopes: keyScopesOf(row),
    cursor: Number(row.cursor),
  }));
}

/** An endpoint acting for a key whose row is gone reads nothing; one acting for no key keeps its own scopes. */
function keyScopesOf(row: Record<string, unknown>): string[] | null {
  if (row.api_key_id === null || row.api_key_id === undefined) return null;
  return row.key_scopes === null || row.key_scopes === undefined ? [] : json<string[]>(row.key_scopes);
}

/**
 * Disables the enabled endpoints (of `teams`, or every team's) whose key has been revoked or has expired,
 * saying which key and what to do; their pending deliveries wait, as for any disabled endpoint.
 */
export async function disableEndpointsOfLostKeys(
  db: Executor,
  now: Date,
  teams?: ReadonlySet<string> | undefined,
): Promise<number> {
  const only = teams ? [...teams] : undefined;
  if (only?.length === 0) return 0;
  const { rows } = (await db.raw(
    `update webhooks w set enabled = false, updated_at = ?, disabled_reason =
       'disabled: the API key it acts for (' || k.prefix || ') ' ||
       case when k.revoked_at is not null then 'was revoked'
            else 'expired at ' || to_char(k.expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') end ||
       '; a key with its read scopes may enable it again (PATCH enabled: true), and it then acts for that key'
     from api_keys k
     where k.id = w.api_key_id and w.enabled and (k.revoked_at is not null or k.expires_at <= ?)
       ${only ? `and w.team_id in (${only.map(() => '?').join(', ')})` : ''}
     returning w.id`,
    [now, now, ...(only ?? [])],
  )) as { rows: unknown[] };
  return rows.length;
}

/**
 * The teams (of `teams`, or all) with an enabled endpoint, whose commits are announced (migration 031's lease)
 * for `seconds` from now: renewed only where less than half of that is left, so a check mostly writes nothing.
 * Rows in team order: dispatchers renewing at once lock them in the same order.
 */
export async function watchWebhookTeams(
  db: Executor,
  seconds: number,
  teams?: ReadonlySet<string> | undefined,
): Promise<string[]> {
  const only = teams ? [...teams] : undefined;
  if (only?.length === 0) return [];
  const { rows } = (await db.raw(
    `with hooked as (
       select distinct team_id from webhooks
       where enabled ${only ? `and team_id in (${only.map(() => '?').join(', ')})` : ''}
     ),
     due as (
       select hooked.team_id from hooked
         left join team_event_heads old on old.team_id = hooked.team_id
       where old.watched_until is null or old.watched_until < now() + make_interval(secs => ?)
       order by hooked.team_id
     ),
     renewed as (select count(vsf_announce_team_events(due.team_id, ?)) from due)
     select team_id from hooked cross join renewed`,
    [...(only ?? []), seconds / 2, seconds],
  )) as { rows: { team_id: string }[] };
  return rows.map((row) => String(row.team_id));
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
  eventType: string;
  url: string;
  secret: string;
  /** What the endpoint and its key read (effectiveReadScopes): checked again before each attempt. */
  readScopes: string[];
  keyScopes: string[] | null;
  leaseToken: string;
}

/** How many attempts may be under way at once, across every instance (counted by their live leases). */
export interface ClaimCaps {
  /** Attempts at one endpoint: a receiver that never answers ties up no more than this. */
  perEndpoint: number;
  /** Attempts for one team's endpoints together: its share of what the dispatchers can do at once. */
  perTeam: number;
}

/**
 * Leases up to `limit` due deliveries of endpoints that may be sent anything now (whereDeliverable's rules:
 * a team's API off pauses them) until `leaseUntil`, in one statement, sharing them fairly: at most
 * `perEndpoint` attempts under way per endpoint and `perTeam` per team, counting those other passes and
 * instances have under way (live leases), and taken round-robin across teams (each team's oldest first,
 * then each team's second…), so one team's backlog or dead receivers never stand before another's. Within a
 * team's share, first attempts go before retries: its failing receivers' retries, however many are due,
 * never hold back a delivery not yet tried (retries have their backoff to wait anyway).
 * `SKIP LOCKED` lets instances claiming at once take different rows without waiting on each other, and the
 * lease keeps a row theirs while the POST runs outside any transaction; an instance that dies mid-attempt
 * loses it when it lapses, and another retries the delivery. Two instances claiming at the same moment may
 * each count the other's leases as not yet there: the caps are exact per instance, approximate across them.
 */
export async function claimDueDeliveries(
  db: Executor,
  options: {
    now: Date;
    leaseUntil: Date;
    limit: number;
    caps: ClaimCaps;
    teams?: ReadonlySet<string> | undefined;
  },
): Promise<ClaimedDelivery[]> {
  const leaseToken = randomUUID();
  const teams = options.teams ? [...options.teams] : undefined;
  if (teams?.length === 0 || options.limit <= 0) return [];
  const { now, caps } = options;
  const { rows } = (await db.raw(
    `with busy as (
       select webhook_id, team_id, count(*)::int as n from webhook_deliveries
       where lease_until is not null and lease_until >= ? group by webhook_id, team_id
     ),
     busy_team as (select team_id, sum(n)::int as n from busy group by team_id),
     candidates as (
       select due.id, due.next_attempt_at, due.attempts > 0 as retry, hook.team_id,
         due.nth + coalesce(bh.n, 0) as endpoint_load
       from webhooks hook
         join teams team on team.id = hook.team_id
         left join api_keys hook_key on hook_key.id = hook.api_key_id
         left join busy bh on bh.webhook_id = hook.id
         cross join lateral (
           select d2.id, d2.next_attempt_at, d2.attempts, row_number() over (order by d2.next_attempt_at, d2.id) as nth
           from webhook_deliveries d2
           where d2.webhook_id = hook.id and d2.status = 'pending' and d2.next_attempt_at <= ?
             and (d2.lease_until is null or d2.lease_until < ?)
           order by d2.next_attempt_at, d2.id
           limit ?
         ) due
       where hook.enabled and team.api_enabled
         and (hook.api_key_id is null or (hook_key.revoked_at is null
           and (hook_key.expires_at is null or hook_key.expires_at > ?)))
         ${teams ? `and hook.team_id in (${teams.map(() => '?').join(', ')})` : ''}
     ),
     fair as (
       select c.id, c.next_attempt_at,
         row_number() over (partition by c.team_id order by c.retry, c.next_attempt_at, c.id) + coalesce(bt.n, 0)
           as team_load
       from candidates c left join busy_team bt on bt.team_id = c.team_id
       where c.endpoint_load <= ?
     )
     update webhook_deliveries d set lease_until = ?, lease_token = ?
     from webhooks w left join api_keys k on k.id = w.api_key_id
     where w.id = d.webhook_id and d.id in (
       select x.id from webhook_deliveries x
       where x.id in (select id from fair where team_load <= ? order by team_load, next_attempt_at limit ?)
         and x.status = 'pending' and (x.lease_until is null or x.lease_until < ?)
       for update of x skip locked)
     returning d.id, d.team_id, d.webhook_id, d.event_id, d.event_type, d.payload, d.attempts, d.first_attempt_at,
       w.url, w.secret, w.read_scopes, w.api_key_id, k.scopes as key_scopes`,
    [
      now,
      now,
      now,
      caps.perEndpoint,
      now,
      ...(teams ?? []),
      caps.perEndpoint,
      options.leaseUntil,
      leaseToken,
      caps.perTeam,
      options.limit,
      now,
    ],
  )) as { rows: Record<string, unknown>[] };
  return rows.map((row) => ({
    id: String(row.id),
    teamId: String(row.team_id),
    webhookId: String(row.webhook_id),
    eventId: String(row.event_id),
    payload: String(row.payload),
    attempts: Number(row.attempts),
    firstAttemptAt: row.first_attempt_at ? new Date(row.first_attempt_at as string | Date) : null,
    eventType: String(row.event_type),
    url: String(row.url),
    secret: String(row.secret),
    readScopes: json<string[]>(row.read_scopes),
    keyScopes: keyScopesOf(row),
    leaseToken,
  }));
}

/** Gives a claimed delivery back untried (this instance is stopping): another pass, anywhere, takes it. */
export async function releaseLease(db: Executor, claimed: ClaimedDelivery): Promise<void> {
  await db('webhook_deliveries')
    .where({ id: claimed.id, lease_token: claimed.leaseToken })
    .update({ lease_until: null, lease_token: null });
}

export interface AttemptRecord {
  status: 'pending' | 'succeeded' | 'failed';
  responseStatus: number | null;
  error: string | null;
  nextAttemptAt: Date | null;
  firstAttemptAt: Date;
}

/** Writes an attempt's outcome and ends the lease; false when the lease was lost (another instance owns it). */
export function recordAttempt(
  db: Executor,
  claimed: ClaimedDelivery,
  attempt: AttemptRecord,
  now: Date,
): Promise<boolean> {
  return endLease(db, claimed, now, {
    status: attempt.status,
    attempts: db.raw('attempts + 1'),
    last_response_status: attempt.responseStatus,
    last_error: attempt.error,
    next_attempt_at: attempt.nextAttemptAt,
    first_attempt_at: db.raw('coalesce(first_attempt_at, ?)', [attempt.firstAttemptAt]),
  });
}

/** Writes `values` to a leased delivery and ends the lease; false when the lease was lost. */
async function endLease(
  db: Executor,
  claimed: ClaimedDelivery,
  now: Date,
  values: Record<string, unknown>,
): Promise<boolean> {
  const updated = await db('webhook_deliveries')
    .where({ id: claimed.id, lease_token: claimed.leaseToken })
    .update({ ...values, lease_until: null, lease_token: null, updated_at: now })
    .returning('id');
  return updated.length > 0;
}

/**
 * Ends a delivery without sending it (`failed`, no attempt counted): what it carries is no longer the
 * endpoint's to see. False when the lease was lost.
 */
export function dropDelivery(db: Executor, claimed: ClaimedDelivery, reason: string, now: Date): Promise<boolean> {
  return endLease(db, claimed, now, { status: 'failed', last_error: reason, next_attempt_at: null });
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
