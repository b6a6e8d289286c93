import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SpecOnlyServer } from '../test/support/spec-only-server.js';
import { sync } from './engine.js';
import { follow } from './feed/follow.js';
import { SyncTeamMismatchError } from './mirror-team.js';
import { type ResourceSpec, selectResources } from './resources.js';
import { openSink } from './sinks/open-sink.js';
import type { Sink } from './sinks/sink.js';
import type { FeedEvent, PageSource } from './source.js';

const [cars, locations] = selectResources(['cars', 'locations']) as [ResourceSpec, ResourceSpec];
const newSink = () => openSink(`sqlite:${join(mkdtempSync(join(tmpdir(), 'vsf-team-')), 'm.db')}`);
const refusal = (mirror: string, key: string) => new SyncTeamMismatchError(mirror, key).message;

/** A spec-only server of one team: `count` locations, stamped after `after` (another server's clock). */
function teamServer(teamId: string | undefined, count: number, after?: SpecOnlyServer): SpecOnlyServer {
  const server = new SpecOnlyServer();
  if (after) server.serverNow = after.serverNow + 60_000;
  for (let i = 0; i < count; i++) server.put(`${teamId ?? 'none'}-${i}`, { teamId });
  return server;
}

/** A source announcing the events feed, whose events after `head` are `events`. */
function withFeed(server: SpecOnlyServer, head: number, events: FeedEvent[] = []): PageSource {
  return {
    fetchPage: (resource, request) => server.fetchPage(resource, request),
    feed: {
      announced: async () => true,
      fetchEvents: async ({ after = 0, limit }) => {
        const page = limit === 0 ? [] : events.filter((e) => e.cursor > after).slice(0, limit);
        const nextCursor = Math.max(after, head, ...page.map((e) => e.cursor));
        return { events: page, nextCursor, hasMore: false, serverDate: new Date(server.serverNow) };
      },
    },
  };
}

/** What a refused run must have left alone: every row, and where each resource stands. */
async function snapshot(sink: Sink, resources: ResourceSpec[]) {
  return Promise.all(resources.map(async (r) => ({ rows: await sink.readAll(r), state: await sink.getState(r) })));
}

describe('a mirror holds one team', () => {
  it('refuses list pages of another team, writing nothing, and stops the run', async () => {
    const a = teamServer('team-a', 3);
    const sink = newSink();
    expect((await sync({ source: a, sink, resources: ['locations'] })).ok).toBe(true);
    const before = await snapshot(sink, [locations]);

    const b = teamServer('team-b', 250, a);
    const result = await sync({ source: b, sink, resources: ['locations', 'cars'], concurrency: 1 });
    expect(result).toMatchObject({ ok: false, stopReason: 'team-mismatch', error: refusal('team-a', 'team-b') });
    // Not retried, and the resource after it not even started: it would be refused the same way.
    expect(result.retries.total).toBe(0);
    expect(result.resources.map((r) => r.status).sort()).toEqual(['failed', 'skipped']);
    expect(await snapshot(sink, [locations])).toEqual(before);
    expect(await sink.readAll(cars)).toEqual([]);
    await sink.close();
  });

  it('refuses feed pages of another team, leaving the rows and the cursor as they were', async () => {
    const a = teamServer('team-a', 3);
    const sink = newSink();
    expect((await sync({ source: withFeed(a, 5), sink, resources: ['locations'] })).ok).toBe(true);
    const before = await snapshot(sink, [locations]);
    expect(before[0]?.state.feedCursor).toBe(5);

    // Another team's key reads its own feed from this mirror's cursor.
    const b = teamServer('team-b', 2, a);
    const events = [...b.records.values()].map((data, i) => ({
      cursor: 6 + i,
      resource: locations.event,
      recordId: String(data.id),
      data,
      createdAt: new Date(b.serverNow).toISOString(),
    }));
    const result = await sync({ source: withFeed(b, 5, events), sink, resources: ['locations'] });
    expect(result).toMatchObject({ ok: false, stopReason: 'team-mismatch', error: refusal('team-a', 'team-b') });
    expect(result.feed?.announced).toBe(true);
    expect(result.resources[0]).toMatchObject({ status: 'failed', pages: 0, error: refusal('team-a', 'team-b') });
    expect(await snapshot(sink, [locations])).toEqual(before);
    await sink.close();
  });

  it('finds the team in the mirror’s other resources: a run of one resource cannot start a second team', async () => {
    const a = teamServer('team-a', 2);
    const sink = newSink();
    expect((await sync({ source: a, sink, resources: ['locations'] })).ok).toBe(true);
    const result = await sync({ source: teamServer('team-b', 2, a), sink, resources: ['cars'] });
    expect(result).toMatchObject({ ok: false, error: refusal('team-a', 'team-b') });
    expect(await sink.readAll(cars)).toEqual([]);
    await sink.close();
  });

  it('learns the key’s team before an empty page is written: it would prune, or move a watermark', async () => {
    const a = teamServer('team-a', 2);
    const sink = newSink();
    expect((await sync({ source: a, sink, resources: ['locations', 'cars'] })).ok).toBe(true);
    const before = await snapshot(sink, [locations, cars]);
    // Team B has locations, but no car to refuse: a full run of cars alone would delete team A's.
    const b = teamServer('team-b', 2, a);
    const none = teamServer('team-b', 0, a);
    const noCars: PageSource = {
      fetchPage: (resource, request) => (resource.name === 'cars' ? none : b).fetchPage(resource, request),
    };
    const result = await sync({ source: noCars, sink, resources: ['cars'], mode: 'full', prune: true });
    expect(result).toMatchObject({ ok: false, stopReason: 'team-mismatch', error: refusal('team-a', 'team-b') });
    expect(await snapshot(sink, [locations, cars])).toEqual(before);
    await sink.close();
  });

  it('gives an empty mirror the team of the first records written, so one run cannot mix two', async () => {
    const a = teamServer('team-a', 2);
    const b = teamServer('team-b', 2, a);
    const byResource: PageSource = {
      fetchPage: (resource, request) => (resource.name === 'cars' ? b : a).fetchPage(resource, request),
    };
    const sink = newSink();
    const result = await sync({ source: byResource, sink, resources: ['locations', 'cars'], concurrency: 1 });
    expect(result).toMatchObject({ ok: false, stopReason: 'team-mismatch' });
    const written = result.resources.find((r) => r.status === 'completed') as { resource: string };
    const refused = written.resource === 'cars' ? locations : cars;
    const [first, second] = written.resource === 'cars' ? ['team-b', 'team-a'] : ['team-a', 'team-b'];
    expect(result.error).toBe(refusal(first, second));
    expect(await sink.readAll(refused)).toEqual([]);
    // The mirror is now that team's: the other's next run is refused too.
    const again = await sync({ source: byResource, sink, resources: [refused.name] });
    expect(again.error).toBe(refusal(first, second));
    await sink.close();
  });

  it('accepts records without a teamId', async () => {
    const a = teamServer('team-a', 2);
    const sink = newSink();
    expect((await sync({ source: a, sink, resources: ['locations'] })).ok).toBe(true);
    const teamless = teamServer(undefined, 2, a);
    const result = await sync({ source: teamless, sink, resources: ['locations'] });
    expect(result.ok).toBe(true);
    expect((await sink.readAll(locations)).map((r) => r.id)).toEqual(['none-0', 'none-1', 'team-a-0', 'team-a-1']);
    await sink.close();
  });

  it('ends a follower at once instead of waiting, as for a server that is down', async () => {
    const a = teamServer('team-a', 2);
    const sink = newSink();
    expect((await sync({ source: a, sink, resources: ['locations'] })).ok).toBe(true);
    const following = follow({
      source: teamServer('team-b', 2, a),
      sink,
      resources: ['locations'],
      signal: AbortSignal.timeout(10_000),
    });
    await expect(following).rejects.toThrow(refusal('team-a', 'team-b'));
    await sink.close();
  });
});
