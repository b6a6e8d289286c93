import { ALL_SCOPES, type V1Event } from '@vsf/contract';
import { VsfClient, type VsfError } from '@vsf/sdk';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CutProxy, startCutProxy } from '../cli/support/cut-proxy.js';

// client.events.follow against the reference server, through a proxy whose network the test takes down:
// it yields each change as it commits (a long poll, not a busy loop), waits the outage out, resumes
// from where it was, and ends when its signal aborts.
let server: TestServer;
let proxy: CutProxy;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ key } = await server.createTeamWithKey(ALL_SCOPES));
  proxy = await startCutProxy(server.baseUrl);
});
afterAll(async () => {
  await proxy?.close();
  await server?.close();
});

describe('client.events.follow', () => {
  it('yields each change as it commits, waits out a network outage, and stops on abort', async () => {
    const writer = new VsfClient({ apiKey: key, baseUrl: server.baseUrl, logLevel: 'off' });
    const { nextCursor: start } = await writer.events.list({ limit: 0 });
    const stop = new AbortController();
    const seen: V1Event[] = [];
    const retries: VsfError[] = [];
    let requests = 0;
    const counting = new VsfClient({
      apiKey: key,
      baseUrl: proxy.baseUrl,
      logLevel: 'off',
      maxRetries: 0,
      fetch: (input, init) => {
        requests++;
        return fetch(input, init);
      },
    });
    const following = (async () => {
      for await (const event of counting.events.follow(
        { after: start },
        { signal: stop.signal, onRetry: (error) => retries.push(error) },
      )) {
        seen.push(event);
      }
    })();
    const until = async (n: number) => {
      const deadline = Date.now() + 20_000;
      while (seen.length < n) {
        if (Date.now() > deadline) throw new Error(`saw ${seen.length} of ${n} events`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };

    const first = await writer.cars.create({ year: 1963, make: 'Aston Martin', model: 'DB5' });
    await until(1);
    // Idle: one long poll at a time, not a request every few milliseconds.
    const before = requests;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(requests - before).toBeLessThanOrEqual(1);

    await proxy.down();
    await writer.cars.update(first.id, { color: 'silver birch' });
    const second = await writer.cars.create({ year: 1964, make: 'Aston Martin', model: 'DB5 Vantage' });
    await new Promise((resolve) => setTimeout(resolve, 800));
    await proxy.restore();
    await until(3);

    stop.abort();
    await following;
    expect(seen.map((e) => [e.type, e.recordId])).toEqual([
      ['car.created', first.id],
      ['car.updated', first.id],
      ['car.created', second.id],
    ]);
    expect(seen.map((e) => e.cursor)).toEqual([start + 1, start + 2, start + 3]);
    expect(retries.length).toBeGreaterThan(0);
  });

  it('throws a 410 instead of skipping events the server no longer keeps', async () => {
    const { key: other, team } = await server.createTeamWithKey(ALL_SCOPES);
    const client = new VsfClient({ apiKey: other, baseUrl: server.baseUrl, logLevel: 'off' });
    await client.locations.create({ name: 'Old' });
    // Numbered first (the server's migration 034 keeps a write's event in an inbox until a read or its drain).
    await server.services.events.numberWaiting([team.id]);
    await server
      .db('team_events')
      .where({ team_id: team.id })
      .update({ created_at: new Date(Date.now() - 40 * 86_400_000) });
    await server.services.events.pruneNow(true);
    const error = await (async () => {
      for await (const _ of client.events.follow({ after: 0 })) break;
    })().catch((e: unknown) => e);
    expect((error as VsfError).status).toBe(410);
    expect((error as VsfError).code).toBe('gone');
  });
});
