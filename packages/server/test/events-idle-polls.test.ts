import { ALL_SCOPES, MAX_EVENTS_WAITS_PER_KEY, type V1Event } from '@vsf/contract';
import { describe, expect, it } from 'vitest';
import { parseApiKey } from '../src/keys/api-key-format.js';
import { STAMP_GATHER_MS } from '../src/keys/last-use-stamps.js';
import type { TestServer } from '../src/testing/index.js';
import { apiCaller } from './support/api-caller.js';
import { queriesDuring } from './support/queries-during.js';
import { waiterAndWriter } from './support/waiter-and-writer.js';

// Idle followers cost the database nothing: a long poll at the head its instance knows (read while hearing
// the team's commits, none heard since) reads neither the head nor an empty page, and one whose wait ends
// with no commit answers without reading again. Each such re-poll used to cost four queries (the head, the
// page, the head again while waiting, the page again at the deadline): 1 000 idle followers, ~160 a second.
// On PostgreSQL the writes go through another instance on the same database; on PGlite, the same process.

interface Feed {
  data: V1Event[];
  nextCursor: number;
  hasMore: boolean;
}

let waiter: TestServer;
let writer: TestServer;
waiterAndWriter((servers) => {
  ({ waiter, writer } = servers);
});

describe('idle long polls', () => {
  it('that time out and poll again send no query: the head is known, an empty wait is not read twice', async () => {
    const followers = 2 * MAX_EVENTS_WAITS_PER_KEY;
    const { team, key } = await waiter.createTeamWithKey(ALL_SCOPES);
    const keys = [key, (await waiter.createKey(team.id, ALL_SCOPES)).key];
    // The team has events before: its head is past 0, and a page read from it would cost a query.
    const write = apiCaller(writer.baseUrl, key);
    expect((await write('POST', '/locations', { body: { name: 'Before' } })).status).toBe(201);
    const head = (await apiCaller(waiter.baseUrl, key)<Feed>('GET', '/events', { query: { limit: '0' } })).body
      .nextCursor;
    // Each follower polls from the head with the shortest wait, as `follow` does with its longer one.
    const poll = async (n: number) => {
      const res = await apiCaller(waiter.baseUrl, keys[n % keys.length])<Feed>('GET', '/events', {
        query: { after: String(head), wait: '1' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: [], nextCursor: head, hasMore: false });
    };
    const everyone = (round: () => Promise<unknown>[]) => Promise.all(round());
    // A first round learns the head (and takes the team's lease), authenticates each key once.
    await everyone(() => Array.from({ length: followers }, (_, n) => poll(n)));
    // Its keys' last-use stamps, gathered in the background, written now rather than during the rounds.
    await waiter.services.auth.flushLastUse();
    const rounds = 2;
    const sent = (
      await queriesDuring(waiter, async () => {
        for (let round = 0; round < rounds; round++) {
          await everyone(() => Array.from({ length: followers }, (_, n) => poll(n)));
        }
      })
    ).map((query) => query.sql);
    console.info(`${followers * rounds} idle long polls that timed out: ${sent.length} queries`, sent);
    expect(sent).toEqual([]);
  });

  it('keys whose last use falls due together stamp it in one statement, and are read again in a few, not each', async () => {
    // Issue #34: 1 000 followers of 200 keys re-poll together; each key's last-use write (once a minute) was a
    // statement per request that found it stale, and its change notification a read per key after it.
    const keyCount = 8;
    const { team, key } = await waiter.createTeamWithKey(ALL_SCOPES);
    const keys = [key];
    for (let n = 1; n < keyCount; n++) keys.push((await waiter.createKey(team.id, ALL_SCOPES)).key);
    const head = (await apiCaller(waiter.baseUrl, key)<Feed>('GET', '/events', { query: { limit: '0' } })).body
      .nextCursor;
    const round = () =>
      Promise.all(
        Array.from({ length: keyCount * MAX_EVENTS_WAITS_PER_KEY }, async (_, n) => {
          const res = await apiCaller(waiter.baseUrl, keys[n % keyCount])<Feed>('GET', '/events', {
            query: { after: String(head), wait: '1' },
          });
          expect(res.status).toBe(200);
        }),
      );
    await round();
    await waiter.services.auth.flushLastUse();
    // Every key's last use a minute old, written in SQL, and each key's change notification sent (a last use
    // written alone sends none, migration 033): every instance reads them all again, as a minute on.
    const prefixes = keys.map((k) => parseApiKey(k)?.prefix as string);
    await writer
      .db('api_keys')
      .whereIn('prefix', prefixes)
      .update({ last_used_at: new Date(Date.now() - 120_000) });
    for (const prefix of prefixes) await writer.db.raw('select pg_notify(?, ?)', ['vsf_key_changes', `key:${prefix}`]);
    // A change made in SQL reaches the verified-key cache within a second.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // The stamps are written in the background, gathered for STAMP_GATHER_MS: waited for too.
    const sent = (
      await queriesDuring(waiter, async () => {
        await round();
        await new Promise((resolve) => setTimeout(resolve, STAMP_GATHER_MS + 500));
      })
    ).map((query) => query.sql);
    const stamps = sent.filter((sql) => /update "?api_keys/i.test(sql));
    const reads = sent.filter((sql) => /from "api_keys"/i.test(sql));
    console.info(`${keyCount} keys due, ${keyCount * MAX_EVENTS_WAITS_PER_KEY} polls: ${sent.length} queries`, sent);
    // One statement each, give or take a request that came in while the first was under way (it goes in
    // the next): per key it was at least one of each, one per request that found it stale.
    expect(stamps.length).toBeGreaterThanOrEqual(1);
    expect(stamps.length).toBeLessThanOrEqual(2);
    expect(reads.length).toBeGreaterThanOrEqual(1);
    expect(reads.length).toBeLessThanOrEqual(3);
    const stamped = await waiter.db('api_keys').whereIn('prefix', prefixes).select('last_used_at');
    for (const row of stamped as { last_used_at: Date }[])
      expect(row.last_used_at.getTime()).toBeGreaterThan(Date.now() - 30_000);
  });

  it('answer a commit made just before they came in, though their instance knew the head without it', async () => {
    const { key } = await waiter.createTeamWithKey(ALL_SCOPES);
    const read = apiCaller(waiter.baseUrl, key);
    const write = apiCaller(writer.baseUrl, key);
    let after = (await read<Feed>('GET', '/events', { query: { limit: '0' } })).body.nextCursor;
    for (let n = 0; n < 10; n++) {
      // A wait that ends empty: its instance now knows the head at `after`.
      const idle = await read<Feed>('GET', '/events', { query: { after: String(after), wait: '1' } });
      expect(idle.body).toEqual({ data: [], nextCursor: after, hasMore: false });
      const made = await write('POST', '/locations', { body: { name: `Just before ${n}` } });
      expect(made.status).toBe(201);
      // At once: the commit's announcement may still be on its way to the waiter's instance, which then
      // takes the known head and waits, to be woken by that announcement.
      const page = await read<Feed>('GET', '/events', { query: { after: String(after), wait: '20' } });
      expect(page.body.data.map((e) => e.recordId)).toEqual([made.body.data.id]);
      expect(page.body.nextCursor).toBeGreaterThan(after);
      after = page.body.nextCursor;
    }
  });

  it('answer a cursor another instance handed out past the head known here, instead of calling it ahead', async () => {
    const { key } = await waiter.createTeamWithKey(ALL_SCOPES);
    const read = apiCaller(waiter.baseUrl, key);
    const write = apiCaller(writer.baseUrl, key);
    const start = (await read<Feed>('GET', '/events', { query: { limit: '0' } })).body.nextCursor;
    await read<Feed>('GET', '/events', { query: { after: String(start), wait: '1' } });
    await write('POST', '/locations', { body: { name: 'Elsewhere' } });
    // The writer's instance tells of the new head straight after its commit.
    const handedOut = (await apiCaller(writer.baseUrl, key)<Feed>('GET', '/events', { query: { limit: '0' } })).body
      .nextCursor;
    expect(handedOut).toBeGreaterThan(start);
    const res = await read<Feed>('GET', '/events', { query: { after: String(handedOut), wait: '1' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], nextCursor: handedOut, hasMore: false });
  });
});
