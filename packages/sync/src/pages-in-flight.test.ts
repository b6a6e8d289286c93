import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SpecOnlyServer } from '../test/support/spec-only-server.js';
import { sync } from './engine.js';
import { type ResourceSpec, selectResources } from './resources.js';
import { openSink } from './sinks/open-sink.js';
import type { FetchedPage, PageRequest, PageSource } from './source.js';

const locations = selectResources(['locations'])[0] as ResourceSpec;
const newSink = () => openSink(`sqlite:${join(mkdtempSync(join(tmpdir(), 'vsf-in-flight-')), 'm.db')}`);
const sorted = (rs: Record<string, unknown>[]) => [...rs].sort((a, b) => String(a.id).localeCompare(String(b.id)));
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Sink = ReturnType<typeof newSink>;
const syncLocations = (source: PageSource, sink: Sink, pagesInFlight: number) =>
  sync({ source, sink, resources: ['locations'], pagesInFlight });

/** The mirror holds exactly the server's records; then it is closed. */
async function expectMirrorOf(server: SpecOnlyServer, sink: Sink) {
  expect(await sink.readAll(locations)).toEqual(sorted([...server.records.values()]));
  await sink.close();
}

/** 650 records: four pages of 200. */
function serverOf650(): SpecOnlyServer {
  const server = new SpecOnlyServer();
  for (let i = 0; i < 650; i++) server.put(`id-${String(i).padStart(4, '0')}`);
  return server;
}

/** A source answering each request through `answer`, and counting the requests out at once. */
function sourceOf(answer: (request: PageRequest) => Promise<FetchedPage>) {
  const seen = { fetched: [] as number[], outAtOnce: 0, out: 0 };
  const source: PageSource = {
    async fetchPage(_resource, request) {
      seen.fetched.push(request.page);
      seen.outAtOnce = Math.max(seen.outAtOnce, ++seen.out);
      try {
        return await answer(request);
      } finally {
        seen.out--;
      }
    },
  };
  return { source, seen };
}

describe('page requests in flight', () => {
  it('writes pages in order when later ones arrive first, never with more requests out than asked', async () => {
    const server = serverOf650();
    // Each page answers sooner than the one before it.
    const { source, seen } = sourceOf(async (request) => {
      await wait(40 - request.page * 10);
      return server.fetchPage(locations, request);
    });
    const sink = newSink();
    const written: number[] = [];
    const applyPage = sink.applyPage.bind(sink);
    sink.applyPage = async (resource, records, checkpoint) => {
      written.push(checkpoint.nextPage - 1);
      return applyPage(resource, records, checkpoint);
    };
    const result = await syncLocations(source, sink, 3);
    expect(result.resources[0]).toMatchObject({ status: 'completed', pages: 4, upserted: 650 });
    expect(written).toEqual([1, 2, 3, 4]);
    expect(seen.outAtOnce).toBe(3);
    await expectMirrorOf(server, sink);
  });

  it('never checkpoints past a page that failed, even when the page after it arrived', async () => {
    const server = serverOf650();
    let failing = true;
    const { source, seen } = sourceOf(async (request) => {
      if (failing && request.page === 3) {
        await wait(30);
        throw new Error('page 3 is unavailable');
      }
      return server.fetchPage(locations, request);
    });
    const sink = newSink();
    const failed = await syncLocations(source, sink, 2);
    expect(failed.resources[0]).toMatchObject({ status: 'failed', error: 'page 3 is unavailable', pages: 2 });
    // Page 4 was fetched while page 3 was out, and is written by no one.
    expect(seen.fetched).toContain(4);
    expect((await sink.getState(locations)).checkpoint).toMatchObject({ nextPage: 3 });
    expect(await sink.countRows(locations)).toBe(400);
    failing = false;
    const resumed = await syncLocations(source, sink, 2);
    expect(resumed.resources[0]).toMatchObject({ status: 'completed', resumed: true });
    await expectMirrorOf(server, sink);
  });

  it('requests a page again when a write landed between two pages answered out of order', async () => {
    const server = serverOf650();
    let delayed = false;
    const { source, seen } = sourceOf(async (request) => {
      if (request.page === 2 && !delayed) {
        delayed = true;
        // Page 3 is answered first; then the oldest record changes (it moves to the top of the list and
        // every record above it one place down) before page 2 is answered. Page 2's last record of
        // before is now page 3's first, and the page 3 already answered does not hold it.
        await wait(30);
        server.put('id-0000', { name: 'changed mid-run' });
      }
      return server.fetchPage(locations, request);
    });
    const sink = newSink();
    const first = await syncLocations(source, sink, 2);
    expect(first.resources[0]).toMatchObject({ status: 'completed' });
    expect(seen.fetched.filter((page) => page === 3)).toHaveLength(2);
    // The changed record itself is the next incremental run's, as with one request at a time.
    const second = await syncLocations(source, sink, 2);
    expect(second.resources[0]).toMatchObject({ status: 'completed', mode: 'incremental' });
    await expectMirrorOf(server, sink);
  });
});
