import { ALL_SCOPES, type V1Event } from '@vsf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/index.js';
import { apiCaller } from './support/api-caller.js';

// Two server instances on one PostgreSQL, writers on both at once, a follower reading the feed alternately
// from each: every acknowledged change is one event, cursors have no gap and no repeat, each instance
// serves the same feed, and a follower that switches instances mid-way misses nothing. PostgreSQL only:
// two instances need a shared database.
const databaseUrl = process.env.TEST_DATABASE_URL;
const WRITES_PER_INSTANCE = process.env.VSF_STRESS ? 200 : 40;

interface Feed {
  data: V1Event[];
  nextCursor: number;
  hasMore: boolean;
}

describe.skipIf(!databaseUrl)('the events feed across two instances', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    a = await startTestServer({ databaseUrl });
    b = await startTestServer({ databaseUrl });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('orders the changes written through both into one gapless feed, served alike by each', async () => {
    const { key } = await a.createTeamWithKey(ALL_SCOPES);
    const callers = [apiCaller(a.baseUrl, key), apiCaller(b.baseUrl, key)];
    const feed = async (i: number, after: number, wait = 0) => {
      const res = await callers[i % 2]!<Feed>('GET', '/events', {
        query: { after: String(after), limit: '50', wait: String(wait) },
      });
      expect(res.status).toBe(200);
      return res.body;
    };
    const start = (await feed(0, 0)).nextCursor; // past the new team's default event types
    const head = async () => (await callers[0]!<Feed>('GET', '/events', { query: { limit: '0' } })).body.nextCursor;

    const seen: V1Event[] = [];
    let writing = true;
    const follower = (async () => {
      let after = start;
      for (let i = 0; writing || after < (await head()); i++) {
        const page = await feed(i, after, writing ? 1 : 0); // alternates instances, long-polls while writes go on
        seen.push(...page.data);
        after = page.nextCursor;
      }
    })();
    const acknowledged: string[] = [];
    await Promise.all(
      callers.map(async (api, instance) => {
        for (let i = 0; i < WRITES_PER_INSTANCE; i++) {
          const created = await api('POST', '/locations', { body: { name: `L${instance}-${i}` } });
          expect(created.status).toBe(201);
          acknowledged.push(`created ${created.body.data.id}`);
          if (i % 2 === 0) {
            const renamed = await api('PATCH', `/locations/${created.body.data.id}`, { body: { name: `R${i}` } });
            expect(renamed.status).toBe(200);
            acknowledged.push(`updated ${created.body.data.id}`);
          }
          if (i % 5 === 0) {
            expect((await api('DELETE', `/locations/${created.body.data.id}`)).status).toBe(200);
            acknowledged.push(`deleted ${created.body.data.id}`);
          }
        }
      }),
    );
    writing = false;
    await follower;

    // One event per acknowledged change, each once.
    expect(seen.map((e) => `${e.action} ${e.recordId}`).sort()).toEqual([...acknowledged].sort());
    expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
    // Cursors without a gap or a repeat, whichever instance served each page.
    expect(seen.map((e) => e.cursor)).toEqual(seen.map((_, i) => start + i + 1));
    // Both instances serve the same feed.
    const whole = async (i: number) => {
      const events: V1Event[] = [];
      for (let after = start; ; ) {
        const page = await feed(i, after);
        events.push(...page.data);
        after = page.nextCursor;
        if (!page.hasMore) return events;
      }
    };
    expect(await whole(1)).toEqual(await whole(0));
    console.log(
      `events across instances: ${acknowledged.length} changes through 2 instances, ${seen.length} events, cursors gapless`,
    );
  });
});
