import type { V1Event } from '@vsf/contract';
import { type MockResource, RESOURCES } from './contract-resources.js';
import type { Clock } from './mock-clock.js';

export type MockRecord = Record<string, unknown> & { id: string };

/** One event of a team's feed, with the resource whose read scopes decide who sees it. */
export interface FeedEvent {
  readonly resource: MockResource;
  readonly event: V1Event;
}

/** A team's records by namespace, its feed, and its stored idempotent responses. */
export class TeamData {
  readonly id = crypto.randomUUID();
  readonly records = new Map<string, Map<string, MockRecord>>();
  readonly feed: FeedEvent[] = [];
  readonly idempotency = new Map<
    string,
    { fingerprint: string; expiresAt: number; status: number; body: unknown; headers: Record<string, string> }
  >();
  private readonly waiters = new Set<() => void>();

  constructor(readonly name: string) {}

  table(namespace: string): Map<string, MockRecord> {
    let table = this.records.get(namespace);
    if (!table) {
      table = new Map();
      this.records.set(namespace, table);
    }
    return table;
  }

  get lastCursor(): number {
    return this.feed.at(-1)?.event.cursor ?? 0;
  }

  /** Resolves when an event after `cursor` is recorded, after `ms`, or when `signal` aborts. */
  waitForEvent(cursor: number, ms: number, signal: AbortSignal | undefined): Promise<void> {
    if (this.lastCursor > cursor || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const check = () => {
        if (this.lastCursor > cursor) done();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(check);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  /** `withData` false: a hard delete, whose event shows no record. */
  record(resource: MockResource, action: V1Event['action'], record: MockRecord, at: Date, withData = true): void {
    // Webhook endpoints are settings, not records with events (the server's RECORDED_NAMESPACES).
    if (resource.namespace === 'webhooks') return;
    const updatedAt = record.updatedAt;
    this.feed.push({
      resource,
      event: {
        id: crypto.randomUUID(),
        cursor: this.lastCursor + 1,
        type: `${resource.eventResource}.${action}`,
        resource: resource.eventResource,
        action,
        recordId: record.id,
        recordUpdatedAt: typeof updatedAt === 'string' ? updatedAt : null,
        data: withData ? structuredClone(record) : null,
        createdAt: at.toISOString(),
      },
    });
    for (const waiter of [...this.waiters]) waiter();
  }
}

/**
 * The in-memory records of every team, written as the server writes rows: `createdAt`/`updatedAt` from the
 * clock, every field of the record present (null when unset), each change an event of the team's feed.
 */
export class MockStore {
  private readonly teams = new Map<string, TeamData>();

  constructor(readonly clock: Clock) {}

  team(name: string): TeamData {
    let team = this.teams.get(name);
    if (!team) {
      team = new TeamData(name);
      this.teams.set(name, team);
    }
    return team;
  }

  resource(namespace: string): MockResource {
    const resource = RESOURCES.get(namespace);
    if (!resource) {
      throw new TypeError(`No resource "${namespace}" in the contract; one of: ${[...RESOURCES.keys()].join(', ')}`);
    }
    return resource;
  }

  find(team: TeamData, namespace: string, id: string): MockRecord | undefined {
    return team.table(namespace).get(id.toLowerCase());
  }

  insert(team: TeamData, namespace: string, values: Record<string, unknown>): MockRecord {
    const resource = this.resource(namespace);
    const at = this.clock.writeTime().toISOString();
    const id = typeof values.id === 'string' ? values.id.toLowerCase() : crypto.randomUUID();
    // Only a seed gives its own times (create bodies have no such fields).
    const time = (given: unknown) => (typeof given === 'string' ? new Date(given).toISOString() : at);
    const full: Record<string, unknown> = {
      ...values,
      id,
      teamId: team.id,
      createdAt: time(values.createdAt),
      updatedAt: time(values.updatedAt),
    };
    const record = Object.fromEntries(resource.fields.map((field) => [field, full[field] ?? null])) as MockRecord;
    team.table(namespace).set(id, record);
    team.record(resource, 'created', record, new Date(at));
    return structuredClone(record);
  }

  update(team: TeamData, namespace: string, id: string, changes: Record<string, unknown>): MockRecord {
    const resource = this.resource(namespace);
    const current = this.find(team, namespace, id);
    if (!current) throw new Error(`update of a missing ${namespace} ${id}`);
    const at = this.clock.writeTime().toISOString();
    for (const field of resource.fields) {
      if (changes[field] !== undefined && !['id', 'teamId', 'createdAt'].includes(field))
        current[field] = changes[field];
    }
    current.updatedAt = at;
    // A soft delete (a `deletedAt` set) is a `deleted` event that still carries the record.
    const deleted = typeof changes.deletedAt === 'string';
    team.record(resource, deleted ? 'deleted' : 'updated', current, new Date(at));
    return structuredClone(current);
  }

  remove(team: TeamData, namespace: string, id: string): void {
    const resource = this.resource(namespace);
    const current = this.find(team, namespace, id);
    if (!current) return;
    team.table(namespace).delete(current.id);
    team.record(resource, 'deleted', current, this.clock.writeTime(), false);
  }
}
