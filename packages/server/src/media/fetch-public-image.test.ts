import { describe, expect, it } from 'vitest';
import { ApiHttpError } from '../errors/api-http-error.js';
import { type FetchedResponse, fetchPublicImage, type PublicFetchDeps } from './fetch-public-image.js';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

/** An answer with `status`, `location` and `body`; `destroy` does nothing unless a test watches it. */
function answer(status: number, location: string | undefined, body: AsyncIterable<Uint8Array>, destroy = () => {}) {
  return { status, location, body, destroy };
}

/** Every host resolves to one public address; `get` answers every request. */
const onePublicAddress = (get: PublicFetchDeps['get']): PublicFetchDeps => ({
  resolve: async () => ['93.184.216.34'],
  get,
});

/** A fake network: DNS answers from a table, and each URL answers from a table. */
function network(
  dns: Record<string, string[]>,
  pages: Record<string, Partial<FetchedResponse> & { chunks?: Uint8Array[] }>,
) {
  const connections: { url: string; address: string }[] = [];
  const deps: PublicFetchDeps = {
    resolve: async (host) => dns[host] ?? [],
    get: async (url, address) => {
      connections.push({ url: url.href, address });
      const page = pages[url.href] ?? { status: 404 };
      return answer(
        page.status ?? 200,
        page.location,
        (async function* () {
          for (const c of page.chunks ?? [PNG]) yield c;
        })(),
      );
    },
  };
  return { deps, connections };
}

const refusal = async (promise: Promise<unknown>) => {
  const error = (await promise.catch((e: unknown) => e)) as ApiHttpError;
  expect(error).toBeInstanceOf(ApiHttpError);
  return error;
};

describe('fetchPublicImage', () => {
  const opts = (deps: PublicFetchDeps) => ({ maxBytes: 1024, deps });

  it('fetches from a public address, connecting to the address it checked', async () => {
    const { deps, connections } = network({ 'img.example': ['93.184.216.34'] }, { 'https://img.example/a.png': {} });
    expect(await fetchPublicImage('https://img.example/a.png', opts(deps))).toEqual(Buffer.from(PNG));
    expect(connections).toEqual([{ url: 'https://img.example/a.png', address: '93.184.216.34' }]);
  });

  // Each refusal's message, and the URLs refused with it.
  const refused: [RegExp, string[]][] = [
    [/Only https/, ['http://img.example/a.png']],
    [/credentials/, ['https://user:pw@img.example/a.png']],
    [/Cannot resolve/, ['https://nowhere.example/a.png']],
    [
      /non-public/,
      [
        'https://127.0.0.1/a.png',
        'https://[::1]/a.png',
        'https://[::ffff:169.254.169.254]/latest/meta-data',
        'https://169.254.169.254/latest/meta-data',
        'https://internal.example/a.png',
        'https://mixed.example/a.png',
        // The URL parser turns these into ::7f00:1, 127.0.0.1 and ::a9fe:a9fe before the check sees them.
        'https://[::127.0.0.1]/a.png',
        'https://2130706433/a.png',
        'https://0x7f.1/a.png',
        'https://[::169.254.169.254]/latest/meta-data',
        'https://[64:ff9b::a9fe:a9fe]/latest/meta-data',
        'https://[2002:a9fe:a9fe::1]/a.png',
        'https://compat.example/a.png',
        'https://nat64.example/a.png',
      ],
    ],
  ];
  it.each(refused.flatMap(([message, urls]) => urls.map((url) => [url, message] as const)))(
    'refuses %s without connecting',
    async (url, message) => {
      const { deps, connections } = network(
        {
          'internal.example': ['10.0.0.5'],
          'mixed.example': ['93.184.216.34', '192.168.0.10'],
          'compat.example': ['::7f00:1'],
          'nat64.example': ['2606:4700::1', '64:ff9b::a00:1'],
        },
        {},
      );
      const error = await refusal(fetchPublicImage(url, opts(deps)));
      expect(error.status).toBe(400);
      expect(JSON.stringify(error.details)).toMatch(message);
      expect(connections).toEqual([]);
    },
  );

  it.each([
    ['connect EHOSTUNREACH ::7f00:1:3699', 'EHOSTUNREACH'],
    ['getaddrinfo ENOTFOUND internal.corp.local', 'ENOTFOUND'],
    ["Hostname/IP does not match certificate's altnames: IP: 10.0.0.7", 'ERR_TLS_CERT_ALTNAME_INVALID'],
    ['write EPROTO 40E8A1B2:error:0A00010B:SSL routines:ssl3_get_record:wrong version number', 'EPROTO'],
  ])('answers a network failure with a fixed message and reason, never the raw error: %s', async (raw, code) => {
    const deps = onePublicAddress(async () => {
      throw Object.assign(new Error(raw), { code });
    });
    const error = await refusal(fetchPublicImage('https://img.example/a.png', opts(deps)));
    expect(error.status).toBe(400);
    expect(error.message).toBe('Could not fetch sourceUrl');
    expect(error.details).toEqual([{ path: 'sourceUrl', message: expect.any(String), reason: 'fetch_failed' }]);
    const text = `${error.message} ${JSON.stringify(error.details)}`;
    for (const leak of [raw, code, '7f00', '3699', '10.0.0.7', 'internal.corp', 'SSL'])
      expect(text).not.toContain(leak);
  });

  it('gives every refusal a stable reason code', async () => {
    const { deps } = network({ 'img.example': ['93.184.216.34'], 'lan.example': ['10.0.0.1'] }, {});
    const reasons = [];
    for (const url of [
      'http://img.example/a',
      'https://u:p@img.example/a',
      'https://lan.example/a',
      'https://x.example/a',
      'https://img.example/404',
    ]) {
      const error = await refusal(fetchPublicImage(url, opts(deps)));
      reasons.push((error.details as { reason: string }[])[0]?.reason);
    }
    expect(reasons).toEqual(['not_https', 'credentials', 'non_public_address', 'unresolvable', 'http_status']);
  });

  it('checks every redirect target again, and stops after 3 redirects', async () => {
    const { deps, connections } = network(
      { 'img.example': ['93.184.216.34'], 'evil.example': ['127.0.0.1'] },
      {
        'https://img.example/a': { status: 302, location: 'https://evil.example/secret' },
        'https://img.example/loop': { status: 301, location: '/loop' },
      },
    );
    expect(JSON.stringify((await refusal(fetchPublicImage('https://img.example/a', opts(deps)))).details)).toMatch(
      /non-public/,
    );
    expect(connections.map((c) => c.url)).toEqual(['https://img.example/a']);
    expect(JSON.stringify((await refusal(fetchPublicImage('https://img.example/loop', opts(deps)))).details)).toMatch(
      /More than 3 redirects/,
    );
  });

  it('stops reading past the size cap with 413', async () => {
    const big = new Uint8Array(600);
    const { deps } = network(
      { 'img.example': ['93.184.216.34'] },
      { 'https://img.example/big': { chunks: [big, big] } },
    );
    expect((await refusal(fetchPublicImage('https://img.example/big', opts(deps)))).status).toBe(413);
  });

  it('gives up on a source that answers too slowly', async () => {
    const deps = onePublicAddress(
      (_url, _address, signal) =>
        new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
        ),
    );
    const error = await refusal(fetchPublicImage('https://slow.example/a', { maxBytes: 10, deps, timeoutMs: 50 }));
    expect(JSON.stringify(error.details)).toMatch(/longer than 0.05 s/);
  });

  // Headers come at once, then a byte every 20 ms: under the size cap, so only the time limit stops it.
  const drip = (honoursAbort: boolean) => {
    const read = { chunks: 0, destroyed: false };
    const deps = onePublicAddress(async (_url, _address, signal) =>
      answer(
        200,
        undefined,
        (async function* () {
          yield PNG.subarray(0, 8);
          for (let i = 0; i < 100 && !read.destroyed; i++) {
            await new Promise((resolve) => setTimeout(resolve, 20));
            // node's response errors once the request's signal aborts; a careless body just goes on.
            if (honoursAbort && signal.aborted) throw new Error('aborted');
            read.chunks++;
            yield new Uint8Array([i]);
          }
        })(),
        () => {
          read.destroyed = true;
        },
      ),
    );
    return { deps, read };
  };

  it.each([
    ['a body that errors on abort, as node does', true],
    ['a body that ignores the abort', false],
  ])('cuts off a source that drips bytes slowly under the size cap: %s', async (_label, honoursAbort) => {
    const { deps, read } = drip(honoursAbort);
    const error = await refusal(fetchPublicImage('https://drip.example/a', { maxBytes: 1024, deps, timeoutMs: 100 }));
    expect(error.status).toBe(400);
    expect(JSON.stringify(error.details)).toMatch(/longer than 0.1 s/);
    // Stopped long before the 100 chunks the source would send.
    expect(read.chunks).toBeLessThan(50);
  });

  it('cuts off a source that sends headers, then nothing, and ignores the abort', async () => {
    const deps = onePublicAddress(async () =>
      answer(
        200,
        undefined,
        (async function* () {
          yield PNG.subarray(0, 8);
          await new Promise(() => {});
        })(),
      ),
    );
    const error = await refusal(fetchPublicImage('https://stall.example/a', { maxBytes: 1024, deps, timeoutMs: 50 }));
    expect(JSON.stringify(error.details)).toMatch(/longer than 0.05 s/);
  });
});
