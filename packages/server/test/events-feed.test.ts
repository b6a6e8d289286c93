import { ALL_SCOPES, EXTENSIONS_HEADER, MAX_EVENTS_WAITS_PER_KEY, type V1Event } from '@vsf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORDED_NAMESPACES, RESOURCE_TABLES } from '../src/repositories/resource-tables.js';
import { EARLY_EMPTY_ANSWER, emptyAnswerDeadline } from '../src/services/events-service.js';
import { startTestServer, type TestServer } from '../src/testing/start-test-server.js';
import { type ApiCaller, apiCaller } from './support/api-caller.js';
import { TINY_PNG } from './support/endpoint-fixtures.js';

// The `events` extension: every change of a team's records, in commit order, shown as GET shows the record,
// to the keys that may read it. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
let server: TestServer;

interface Feed {
  data: V1Event[];
  nextCursor: number;
  hasMore: boolean;
}

/** A new team, its all-scope caller, and a reader of its feed. */
async function team(scopes: readonly string[] = ALL_SCOPES) {
  const created = await server.createTeamWithKey(scopes);
  const raw = apiCaller(server.baseUrl, created.key);
  // Writes that fail would leave nothing to see: every call here must succeed.
  const api: ApiCaller = async (method, path, options) => {
    const res = await raw(method, path, options);
    if (res.status >= 300 && !path.startsWith('/events')) {
      throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    return res;
  };
  const feed = async (query: Record<string, string | number> = {}) => {
    const res = await api<Feed>('GET', '/events', {
      query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
    });
    if (res.status !== 200) throw new Error(`GET /events: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  // A new team's default event types are its first records: tests read what follows them.
  const start = (await feed({ limit: 0 })).nextCursor;
  /** Every event after `after` (the team's start), page by page. */
  const drain = async (after = start, limit = 100) => {
    const events: V1Event[] = [];
    for (let cursor = after; ; ) {
      const page = await feed({ after: cursor, limit });
      events.push(...page.data);
      cursor = page.nextCursor;
      if (!page.hasMore) return { events, cursor };
    }
  };
  return { ...created, api, raw, feed, drain, start };
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('events feed', () => {
  it('is announced, and records every team table the API lists', async () => {
    const { api } = await team();
    const res = await api('GET', '/events');
    expect(res.status).toBe(200);
    expect(res.headers.get(EXTENSIONS_HEADER)?.split(/,\s*/)).toContain('events');
    const { rows } = (await server.db.raw("select tgname from pg_trigger where tgname like '%_record_events'")) as {
      rows: { tgname: string }[];
    };
    const names = new Set(rows.map((r) => r.tgname));
    // Every table behind a resource the contract declares (webhook endpoints are settings, not records),
    // so a new resource's migration cannot forget it (db/migrations/resource-table.ts does it).
    const recorded = RECORDED_NAMESPACES.map((namespace) => RESOURCE_TABLES[namespace]?.table as string);
    expect(recorded.filter((t) => !names.has(`${t}_record_events`))).toEqual([]);
  });

  it('shows creates, updates, soft and hard deletes as GET showed each record, in order', async () => {
    const { api, drain, start } = await team();
    const location = (await api('POST', '/locations', { body: { name: 'Lot A' } })).body.data;
    const customer = (await api('POST', '/customers', { body: { firstName: 'Ada', lastName: 'L' } })).body.data;
    const renamed = (await api('PATCH', `/customers/${customer.id}`, { body: { lastName: 'Lovelace' } })).body.data;
    expect((await api('DELETE', `/customers/${customer.id}`)).status).toBe(200);
    const softDeleted = (await api('GET', `/customers/${customer.id}`)).body.data;
    expect(softDeleted.deletedAt).not.toBeNull();
    const restored = (await api('PATCH', `/customers/${customer.id}`, { body: { restore: true } })).body.data;
    expect((await api('DELETE', `/locations/${location.id}`)).status).toBe(200);

    const { events, cursor } = await drain();
    expect(events.map((e) => e.type)).toEqual([
      'location.created',
      'customer.created',
      'customer.updated',
      'customer.deleted',
      'customer.updated',
      'location.deleted',
    ]);
    expect(events.map((e) => e.cursor)).toEqual([1, 2, 3, 4, 5, 6].map((n) => start + n));
    expect(cursor).toBe(start + 6);
    expect(events.map((e) => e.data)).toEqual([location, customer, renamed, softDeleted, restored, null]);
    expect(events[5]).toMatchObject({ resource: 'location', action: 'deleted', recordId: location.id });
    expect(events[5]?.recordUpdatedAt).toBe(location.updatedAt);
    expect(events[2]?.recordUpdatedAt).toBe(renamed.updatedAt);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
  });

  it('names each resource as the contract does, nested and shared-table ones included', async () => {
    const { api, drain } = await team();
    const zone = (await api('POST', '/parking-zones', { body: { name: 'Z' } })).body.data;
    await api('POST', '/parking-spots', { body: { parkingZoneId: zone.id, name: 'S1' } });
    const event = (
      await api('POST', '/marketing/social-events', { body: { name: 'Open day', startsAt: '2027-01-01T10:00:00Z' } })
    ).body.data;
    await api('POST', `/marketing/social-events/${event.id}/rsvp-options`, { body: { label: 'Yes' } });
    // The asset's bytes are a media row, the table car photos share: no car_photo event for it.
    const asset = (
      await api('POST', '/marketing/assets', {
        body: { filename: 'logo.png', contentType: 'image/png', base64: TINY_PNG },
      })
    ).body.data;
    const { events } = await drain();
    expect(events.map((e) => e.type)).toEqual([
      'parking_zone.created',
      'parking_spot.created',
      'social_event.created',
      'rsvp_option.created',
      'marketing_asset.created',
    ]);
    expect(events[4]?.data).toEqual(asset);
  });

  it('hands out cursors in commit order: a follower reading while writers race misses nothing', async () => {
    const { api, feed, drain, start } = await team();
    const seen: V1Event[] = [];
    let writing = true;
    const follower = (async () => {
      let after = start;
      while (writing || after < (await feed({ limit: 0 })).nextCursor) {
        const page = await feed({ after, limit: 7 });
        seen.push(...page.data);
        after = page.nextCursor;
      }
    })();
    const writes = Array.from({ length: 48 }, async (_, i) => {
      const created = await api('POST', '/locations', { body: { name: `L${i}` } });
      if (i % 3 === 0) await api('PATCH', `/locations/${created.body.data.id}`, { body: { name: `M${i}` } });
      if (i % 4 === 0) await api('DELETE', `/locations/${created.body.data.id}`);
    });
    await Promise.all(writes);
    writing = false;
    await follower;
    const { events } = await drain();
    expect(events).toHaveLength(48 + 16 + 12);
    expect(events.map((e) => e.cursor)).toEqual(events.map((_, i) => start + i + 1));
    expect(seen.map((e) => e.cursor)).toEqual(events.map((e) => e.cursor));
    // Per record, created before updated before deleted.
    const order = new Map<string, string[]>();
    for (const e of events) order.set(e.recordId, [...(order.get(e.recordId) ?? []), e.action]);
    for (const actions of order.values()) {
      expect(actions[0]).toBe('created');
      expect(actions.indexOf('deleted')).toBeOneOf([-1, actions.length - 1]);
    }
  });

  it('shows a key only the events of records it can read, and another team none', async () => {
    const owner = await team();
    await owner.api('POST', '/customers', { body: { firstName: 'Ada', lastName: 'L' } });
    const car = (await owner.api('POST', '/cars', { body: { make: 'Honda', model: 'Accord', year: 2003 } })).body.data;
    await owner.api('POST', '/customers', { body: { firstName: 'Bo', lastName: 'K' } });
    const carsOnly = apiCaller(server.baseUrl, (await server.createKey(owner.team.id, ['read:cars'])).key);
    const page = (await carsOnly<Feed>('GET', '/events', { query: { after: String(owner.start) } })).body;
    expect(page.data.map((e) => [e.type, e.recordId])).toEqual([['car.created', car.id]]);
    // Past the customer event it may not see: the next read starts at the feed's end.
    expect(page).toMatchObject({ nextCursor: owner.start + 3, hasMore: false });
    const customersOnly = apiCaller(server.baseUrl, (await server.createKey(owner.team.id, ['read:customers'])).key);
    const theirs = (await customersOnly<Feed>('GET', '/events', { query: { after: String(owner.start) } })).body;
    expect(theirs.data.map((e) => e.type)).toEqual(['customer.created', 'customer.created']);

    const noRead = apiCaller(server.baseUrl, (await server.createKey(owner.team.id, ['write:cars'])).key);
    expect((await noRead('GET', '/events')).status).toBe(403);

    const stranger = await team();
    const strangers = await stranger.feed();
    expect(strangers.data.every((e) => e.type === 'event_type.created')).toBe(true);
    expect(strangers.data.map((e) => e.recordId)).not.toContain(car.id);
  });

  it('answers 410 for a cursor past the end of the feed (another team’s, a reset database’s), and the end itself is fine', async () => {
    const { api, feed } = await team();
    const end = (await feed({ limit: 0 })).nextCursor;
    await api('POST', '/locations', { body: { name: 'After the end' } });
    const ahead = await api('GET', '/events', { query: { after: String(end + 5) } });
    expect(ahead.status).toBe(410);
    expect(ahead.body).toMatchObject({ code: 'gone' });
    expect(ahead.body.error).toMatch(/past the end.*resync/);
    expect((await feed({ after: end })).data.map((e) => e.cursor)).toEqual([end + 1]);
    expect((await feed({ after: end + 1 })).data).toEqual([]);
  });

  it('answers 410 for a cursor older than the retention, and starts a new reader at the oldest kept', async () => {
    const { api, feed, team: created, start } = await team();
    for (const name of ['A', 'B', 'C', 'D']) await api('POST', '/locations', { body: { name } });
    // Numbered (migration 034) before their rows are aged.
    await feed({ limit: 0 });
    await server
      .db('team_events')
      .where({ team_id: created.id })
      .where('cursor', '<=', start + 2)
      .update({ created_at: server.db.raw("now() - interval '31 days'") });
    expect(await server.services.events.pruneNow(true)).toBeGreaterThanOrEqual(start + 2);

    const old = await api('GET', '/events', { query: { after: String(start + 1) } });
    expect(old.status).toBe(410);
    expect(old.body).toMatchObject({ code: 'gone' });
    expect(old.body.error).toMatch(/resync/);
    const kept = [start + 3, start + 4];
    expect((await feed({ after: start + 2 })).data.map((e) => e.cursor)).toEqual(kept);
    expect((await feed()).data.map((e) => e.cursor)).toEqual(kept);
  });

  it('long-polls: a waiting request answers when the next change commits', async () => {
    const { api, feed } = await team();
    const start = (await feed({ limit: 0 })).nextCursor;
    const waiting = feed({ after: start, wait: 10 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await api('POST', '/locations', { body: { name: 'Late' } });
    const page = await waiting;
    expect(page.data.map((e) => e.type)).toEqual(['location.created']);
    // Nothing follows: a short wait answers an empty page at the same cursor.
    expect(await feed({ after: page.nextCursor, wait: 1 })).toEqual({
      data: [],
      nextCursor: page.nextCursor,
      hasMore: false,
    });
  });

  it('checks the key again before a long poll answers: revoked, expired or API off meanwhile', async () => {
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // Revoked while waiting: the record written after the revoke is not shown.
    const owner = await team();
    const follower = await server.createKey(owner.team.id, ['read:locations']);
    const follow = apiCaller(server.baseUrl, follower.key);
    const waiting = follow('GET', '/events', { query: { after: String(owner.start), wait: '10' } });
    await pause(300);
    expect((await server.admin('POST', `/keys/${follower.id}/revoke`)).status).toBe(200);
    await owner.api('POST', '/locations', { body: { name: 'After the revoke' } });
    const revoked = await waiting;
    expect(revoked.status).toBe(401);
    expect(revoked.body).toMatchObject({ error: 'API key revoked', code: 'unauthorized' });

    // The team's API turned off while waiting.
    const other = await team();
    const off = other.raw('GET', '/events', { query: { after: String(other.start), wait: '2' } });
    await pause(300);
    expect((await server.admin('PATCH', `/teams/${other.team.id}`, { apiEnabled: false })).status).toBe(200);
    expect((await off).body).toMatchObject({ error: 'API is disabled for this team', code: 'forbidden' });

    // Expired while waiting, nothing written: the empty answer at the deadline is a 401 too.
    const third = await team();
    const soon = await server.createKey(third.team.id, ['read:locations'], {
      expiresAt: new Date(Date.now() + 1_000).toISOString(),
    });
    const expiring = await apiCaller(server.baseUrl, soon.key)('GET', '/events', {
      query: { after: String(third.start), wait: '2' },
    });
    expect(expiring.body).toMatchObject({ error: 'API key expired', code: 'unauthorized' });
  });

  /** The least share of its `wait` an empty long poll waits. */
  const EARLIEST = 1 - EARLY_EMPTY_ANSWER;

  it(`holds at most ${MAX_EVENTS_WAITS_PER_KEY} long polls per key; one more answers at once`, async () => {
    const { raw, start, team: created } = await team();
    const began = Date.now();
    const polls = Array.from({ length: MAX_EVENTS_WAITS_PER_KEY }, () =>
      raw('GET', '/events', { query: { after: String(start), wait: '3' } }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const extra = await raw<Feed>('GET', '/events', { query: { after: String(start), wait: '3' } });
    expect(extra.status).toBe(200);
    expect(extra.body).toEqual({ data: [], nextCursor: start, hasMore: false });
    expect(Date.now() - began).toBeLessThan(2_000);
    // The cap is the key's: another key of the team still waits.
    const another = apiCaller(server.baseUrl, (await server.createKey(created.id, ['read:locations'])).key);
    const beganOther = Date.now();
    await another('GET', '/events', { query: { after: String(start), wait: '1' } });
    expect(Date.now() - beganOther).toBeGreaterThanOrEqual(EARLIEST * 1_000);
    for (const poll of await Promise.all(polls)) expect(poll.status).toBe(200);
    expect(Date.now() - began).toBeGreaterThanOrEqual(EARLIEST * 3_000);
    // Their slots are free again once they answered.
    const after = Date.now();
    await raw('GET', '/events', { query: { after: String(start), wait: '1' } });
    expect(Date.now() - after).toBeGreaterThanOrEqual(EARLIEST * 1_000);
  });

  it('answers an empty wait in its last fifth, each at a point of its own: followers that began together spread out', async () => {
    const { team: created, start } = await team();
    const followers: ApiCaller[] = [];
    for (let n = 0; n < 2; n++)
      followers.push(apiCaller(server.baseUrl, (await server.createKey(created.id, ['read:locations'])).key));
    const began = Date.now();
    const answeredAfter = await Promise.all(
      Array.from({ length: 2 * MAX_EVENTS_WAITS_PER_KEY }, async (_, n) => {
        const res = await followers[n % 2]!<Feed>('GET', '/events', { query: { after: String(start), wait: '2' } });
        expect(res.body).toEqual({ data: [], nextCursor: start, hasMore: false });
        return Date.now() - began;
      }),
    );
    for (const ms of answeredAfter) {
      expect(ms).toBeGreaterThanOrEqual(EARLIEST * 2_000);
      expect(ms).toBeLessThan(2_000 + 1_000);
    }
    // Ten points drawn over the last 400 ms: all within 80 ms of each other about once in 200 000 runs.
    expect(Math.max(...answeredAfter) - Math.min(...answeredAfter)).toBeGreaterThan(80);
  });

  it("draws an empty wait's deadline from the last fifth of the wait", () => {
    expect(emptyAnswerDeadline(25, 1_000, 0)).toBe(26_000);
    expect(emptyAnswerDeadline(25, 1_000, 1)).toBe(1_000 + 25_000 * EARLIEST);
    expect(emptyAnswerDeadline(10, 0, 0.5)).toBe(9_000);
  });

  it('refuses bad input with the ApiError shape', async () => {
    const { api } = await team();
    const bad = [{ after: '-1' }, { after: 'x' }, { limit: '501' }, { wait: '31' }, { other: '1' }];
    // Decimal digits only: Number() reads `0x10` as 16, `1e3` as 1000, and an empty `after=` as cursor 0.
    const notDecimal = [{ after: '0x10' }, { after: '1e3' }, { after: '' }, { after: '+1' }, { limit: '0x1' }];
    for (const query of [...bad, ...notDecimal, { wait: '1e1' }, { wait: '' }]) {
      const res = await api('GET', '/events', { query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.code).toBe('validation_error');
    }
  });
});
