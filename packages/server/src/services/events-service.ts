import {
  type EndpointQuery,
  type EventsPage,
  firstMissingScope,
  type listEvents,
  MAX_EVENTS_WAITS_PER_KEY,
  type V1Event,
} from '@vsf/contract';
import { ApiHttpError } from '../errors/api-http-error.js';
import { eventsAfter, feedHead, pruneEvents, type StoredEvent, sequenceEvents } from '../repositories/team-events.js';
import type { AuthContext } from './auth-service.js';
import { FeedWake } from './feed-wake.js';
import type { ServiceDeps } from './service-deps.js';
import type { TeamResource } from './standard/team-resource.js';

// biome-ignore lint/suspicious/noExplicitAny: resources of every record type feed one list.
export type AnyResource = TeamResource<any, any>;

/** Retention runs at most this often per instance, from the feed's own requests. */
const PRUNE_EVERY_MS = 60_000;

/**
 * An empty wait answers at a random point of the last fifth of its `wait`, not on the dot. Followers that began
 * together (a deploy, a network blip, a thousand started by one cron tick) would otherwise re-poll together
 * every `wait` seconds forever: 1 000 idle followers answered and re-polled in one burst that doubled another
 * team's p99 for its length (issue #34). Each early answer moves its follower by up to this much, so a herd
 * spreads out within a few waits. `wait` is "up to" in the contract: a follower polls again either way.
 */
export const EARLY_EMPTY_ANSWER = 0.2;

/** When a wait of `waitSeconds` from now answers if nothing comes: somewhere in its last fifth. */
export function emptyAnswerDeadline(waitSeconds: number, now = Date.now(), random = Math.random()): number {
  return now + waitSeconds * 1000 * (1 - EARLY_EMPTY_ANSWER * random);
}

export interface EventsOptions {
  /** Events older than this are deleted (`VSF_EVENTS_RETENTION_DAYS`, default 30). */
  retentionDays: number;
  /** Aborted when the server shuts down: waiting requests answer at once instead of holding it up. */
  stopping?: AbortSignal | undefined;
  /**
   * Wakes waiting requests when their team commits (the instance's LISTEN connection); without it, each
   * waiting request reads its team's head once a second.
   */
  wake?: FeedWake | undefined;
}

/**
 * Checks the calling credential again, as the request's authentication did, and throws its 401 or 403: a wait
 * may outlive the key's revocation, expiry or the team's API switch, and its answer must not.
 */
export type RecheckAuth = () => Promise<unknown>;

const cursorGone = (after: number, prunedThrough: number) =>
  new ApiHttpError(
    410,
    'gone',
    `Events after cursor ${after} are no longer kept (the oldest kept follows ${prunedThrough}): resync the records, then follow from the nextCursor of GET /events?limit=0`,
  );

const cursorAhead = (after: number, lastCursor: number) =>
  new ApiHttpError(
    410,
    'gone',
    `Cursor ${after} is past the end of this team's feed (its last is ${lastCursor}): it belongs to another team or to a database since reset; resync the records, then follow from the nextCursor of GET /events?limit=0`,
  );

/**
 * The `events` extension: the team's changes in commit order, each shown as `GET` shows its record, to the
 * keys that can read that resource. The events themselves are written by the database (migration 024).
 */
export class EventsService {
  private lastPrune = 0;
  /** Long polls waiting now, by key id. */
  private readonly waits = new Map<string, number>();
  private readonly wake: FeedWake;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly resources: readonly AnyResource[],
    private readonly options: EventsOptions,
  ) {
    this.wake = options.wake ?? new FeedWake(deps.db);
  }

  /**
   * `gone`: the client went away, so a wait ends early. `recheck`: the credential's check, run again before an
   * answer that waited (without it, a wait is answered on the standing the key had when the request came in).
   */
  async list(
    auth: AuthContext,
    query: EndpointQuery<typeof listEvents>,
    gone?: AbortSignal,
    recheck?: RecheckAuth,
  ): Promise<EventsPage> {
    if (query.wait === 0 || !this.claimWait(auth.keyId)) return this.read(auth, { ...query, wait: 0 }, gone, recheck);
    try {
      return await this.read(auth, query, gone, recheck);
    } finally {
      this.releaseWait(auth.keyId);
    }
  }

  /** Takes one of the key's wait slots; false when it holds them all (the request answers without waiting). */
  private claimWait(keyId: string): boolean {
    const held = this.waits.get(keyId) ?? 0;
    if (held >= MAX_EVENTS_WAITS_PER_KEY) return false;
    this.waits.set(keyId, held + 1);
    return true;
  }

  private releaseWait(keyId: string): void {
    const held = (this.waits.get(keyId) ?? 1) - 1;
    if (held > 0) this.waits.set(keyId, held);
    else this.waits.delete(keyId);
  }

  private async read(
    auth: AuthContext,
    query: EndpointQuery<typeof listEvents>,
    gone: AbortSignal | undefined,
    recheck: RecheckAuth | undefined,
  ): Promise<EventsPage> {
    const signal =
      gone && this.options.stopping ? AbortSignal.any([gone, this.options.stopping]) : (gone ?? this.options.stopping);
    await this.pruneNow();
    const readable = this.readableByTable(auth.scopes);
    const tables = [...readable.keys()];
    // A follower waiting at the head, as this instance knows it from the team's commits it hears: nothing to
    // read (no event after it, and no cursor past it or retention could have passed), straight to waiting.
    const known = query.wait > 0 && query.limit > 0 ? this.wake.knownHead(auth.teamId) : undefined;
    let head = known && query.after === known.lastCursor ? known : await feedHead(this.deps.db, auth.teamId);
    if (query.after !== undefined && query.after < head.prunedThrough)
      throw cursorGone(query.after, head.prunedThrough);
    // No reader of this feed was ever given such a cursor: it is another team's, or a database's since reset.
    // Read on from it and every change up to it would be missed, silently.
    if (query.after !== undefined && query.after > head.lastCursor) throw cursorAhead(query.after, head.lastCursor);
    let after = query.after ?? head.prunedThrough;
    if (query.limit === 0) return { data: [], nextCursor: Math.max(after, head.lastCursor), hasMore: false };
    const deadline = emptyAnswerDeadline(query.wait);
    let waited = false;
    for (;;) {
      // Nothing can follow `after` up to the head read: no query (a wait that ends with no commit heard).
      const stored =
        after >= head.lastCursor
          ? []
          : await eventsAfter(this.deps.db, auth.teamId, {
              after,
              through: head.lastCursor,
              tables,
              limit: query.limit + 1,
            });
      const hasMore = stored.length > query.limit;
      const page = stored.slice(0, query.limit);
      const data = await this.present(auth.teamId, page, readable);
      // Past the last event looked at, or past every event this key may not see up to the head.
      const nextCursor = hasMore ? (page[page.length - 1]?.cursor ?? after) : Math.max(after, head.lastCursor);
      if (data.length > 0 || hasMore || Date.now() >= deadline || signal?.aborted) {
        // After the read: a revoke that committed before this check shows no event written after it.
        if (waited) await recheck?.();
        return { data, nextCursor, hasMore };
      }
      after = nextCursor;
      waited = true;
      // Woken by the team's next commit (one LISTEN connection per instance), not by reading the head on a
      // timer: the watch is taken before the head is read, so a commit between the two is not missed.
      while (Date.now() < deadline && !signal?.aborted) {
        const watch = this.wake.watch(auth.teamId);
        try {
          const next = await this.wake.head(auth.teamId, deadline);
          if (next.lastCursor > after) {
            head = next;
            break;
          }
          await watch.next(deadline, signal);
        } finally {
          watch.stop();
        }
      }
    }
  }

  /**
   * What a reader with `scopes` sees of the team's feed after `after`, at most `limit` events looked at,
   * presented exactly as `list` presents them: the webhook dispatcher sends these. A cursor retention has
   * passed resumes at the oldest kept event (a dispatcher has no one to answer 410).
   */
  async presentedAfter(
    teamId: string,
    scopes: ReadonlySet<string>,
    after: number,
    limit: number,
  ): Promise<{ events: V1Event[]; nextCursor: number; hasMore: boolean }> {
    const head = await feedHead(this.deps.db, teamId);
    const from = Math.max(after, head.prunedThrough);
    const readable = this.readableByTable(scopes);
    const stored = await eventsAfter(this.deps.db, teamId, {
      after: from,
      through: head.lastCursor,
      tables: [...readable.keys()],
      limit: limit + 1,
    });
    const hasMore = stored.length > limit;
    const page = stored.slice(0, limit);
    const events = await this.present(teamId, page, readable);
    return {
      events,
      nextCursor: hasMore ? (page[page.length - 1]?.cursor ?? from) : Math.max(from, head.lastCursor),
      hasMore,
    };
  }

  /**
   * Gives cursors to the committed events waiting in the inbox (migration 034), of `teams` or of every team:
   * what each read does for its own team first, and the instance's drain every few seconds.
   */
  numberWaiting(teams?: readonly string[]): Promise<number> {
    return sequenceEvents(this.deps.db, teams);
  }

  /** Deletes events past the retention, at most once a minute per instance. */
  async pruneNow(force = false): Promise<number> {
    const now = this.deps.now().getTime();
    if (!force && now - this.lastPrune < PRUNE_EVERY_MS) return 0;
    this.lastPrune = now;
    return pruneEvents(this.deps.db, new Date(now - this.options.retentionDays * 86_400_000));
  }

  /** The resources whose records a key with `scopes` can read, by the table that stores them. */
  private readableByTable(scopes: ReadonlySet<string>): Map<string, AnyResource[]> {
    const byTable = new Map<string, AnyResource[]>();
    for (const resource of this.resources) {
      const required = resource.readScopes;
      if (!required || firstMissingScope(scopes, required)) continue;
      byTable.set(resource.storageTable, [...(byTable.get(resource.storageTable) ?? []), resource]);
    }
    return byTable;
  }

  private async present(
    teamId: string,
    page: readonly StoredEvent[],
    readable: ReadonlyMap<string, AnyResource[]>,
  ): Promise<V1Event[]> {
    const shown = new Map<StoredEvent, { resource: AnyResource; record: Record<string, unknown> }>();
    for (const [table, resources] of readable) {
      const rows = page.filter((event) => event.tableName === table && event.record);
      if (rows.length === 0) continue;
      for (const resource of resources) {
        const records = await resource.recordsOf(
          teamId,
          rows.map((event) => event.record as Record<string, unknown>),
        );
        rows.forEach((event, index) => {
          const record = records[index];
          if (record && !shown.has(event)) shown.set(event, { resource, record });
        });
      }
    }
    return page.flatMap((event) => {
      const match = shown.get(event);
      // A row of a shared table no readable resource claims (another kind of media) is not this key's event.
      if (!match) return [];
      const updatedAt = match.record.updatedAt;
      const action = event.action === 'soft_deleted' ? 'deleted' : event.action;
      return [
        {
          id: event.id,
          cursor: event.cursor,
          type: `${match.resource.eventResource}.${action}`,
          resource: match.resource.eventResource,
          action,
          recordId: event.recordId,
          recordUpdatedAt: typeof updatedAt === 'string' ? updatedAt : null,
          // A hard delete shows no record: it no longer exists. A soft delete shows it with its deletedAt.
          data: event.action === 'deleted' ? null : match.record,
          createdAt: event.createdAt.toISOString(),
        },
      ];
    });
  }
}
