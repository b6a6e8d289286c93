import { getEventListeners } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiEndpoints } from '../generated/api-endpoints.js';
import { VsfClient } from '../generated/vsf-client.js';
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  TimeoutError,
  VsfError,
} from './errors.js';
import type { Logger } from './logger.js';

const BASE = 'http://vsf.test/api/v1';
const KEY = 'vsf_abcdefghijkl.SECRETSECRETSECRETSECRETSECRETSECRETSECRET123';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const car = (id: string) => ({ id, year: 1999, make: 'A', model: 'B' });
const client = (options: ConstructorParameters<typeof VsfClient>[0] = {}) =>
  new VsfClient({ apiKey: KEY, baseUrl: BASE, logLevel: 'off', ...options });
const apiError = (
  status: number,
  error: string,
  code: string,
  details: unknown = null,
  headers: Record<string, string> = {},
) => HttpResponse.json({ error, code, details }, { status, headers: { 'x-request-id': 'req-1', ...headers } });

/** `GET /cars/:id` answered by `respond`, told the call's number (1 up) and the id; returns how many calls came. */
function serveCar(respond: (call: number, id: string) => Response | Promise<Response>): () => number {
  let calls = 0;
  server.use(http.get(`${BASE}/cars/:id`, ({ params }) => respond(++calls, String(params.id))));
  return () => calls;
}

describe('construction', () => {
  it('fails at construction, not at the first request, when no key is configured', () => {
    vi.stubEnv('VSF_API_KEY', '');
    expect(() => new VsfClient({ baseUrl: BASE })).toThrow(/No API key: pass it to the constructor or set VSF_API_KEY/);
    expect(() => new VsfClient({ baseUrl: BASE })).toThrow(
      expect.objectContaining({ name: 'ClientConfigurationError', code: 'missing_credential' }),
    );
    vi.unstubAllEnvs();
  });

  it('reads VSF_API_KEY and VSF_BASE_URL', async () => {
    vi.stubEnv('VSF_API_KEY', KEY);
    vi.stubEnv('VSF_BASE_URL', 'http://env.test/api/v1/');
    server.use(
      http.get('http://env.test/api/v1/cars/:id', ({ params }) => HttpResponse.json({ data: car(String(params.id)) })),
    );
    const c = new VsfClient({ logLevel: 'off' });
    expect(c.baseUrl).toBe('http://env.test/api/v1');
    expect(await c.cars.get('c1')).toMatchObject({ id: 'c1' });
    vi.unstubAllEnvs();
  });
});

describe('auth headers', () => {
  it('sends Authorization: Bearer by default and x-api-key on request', async () => {
    const seen: Record<string, string | null>[] = [];
    server.use(
      http.get(`${BASE}/auth/key`, ({ request }) => {
        seen.push({ auth: request.headers.get('authorization'), key: request.headers.get('x-api-key') });
        return HttpResponse.json({ data: { id: 'k' } });
      }),
    );
    await client().auth.getKey();
    await client({ authHeader: 'x-api-key' }).auth.getKey();
    expect(seen).toEqual([
      { auth: `Bearer ${KEY}`, key: null },
      { auth: null, key: KEY },
    ]);
  });
});

describe('responses', () => {
  it('unwraps single records and exposes the raw response', async () => {
    server.use(
      http.get(`${BASE}/cars/:id`, ({ params }) =>
        HttpResponse.json(
          { data: car(String(params.id)) },
          { headers: { date: 'Mon, 23 Nov 2026 05:00:00 GMT', 'x-request-id': 'r9' } },
        ),
      ),
    );
    const c = client();
    expect(await c.cars.get('abc')).toEqual(car('abc'));
    const { data, response } = await c.cars.get('abc').withResponse();
    expect(data.id).toBe('abc');
    expect(response.headers.get('date')).toBe('Mon, 23 Nov 2026 05:00:00 GMT');
    expect((await c.cars.get('abc').asResponse()).headers.get('x-request-id')).toBe('r9');
  });

  it('serializes Dates, arrays and booleans in the query', async () => {
    let url: URL | undefined;
    server.use(
      http.get(`${BASE}/customers`, ({ request }) => {
        url = new URL(request.url);
        return HttpResponse.json({ data: [], page: 1, limit: 50, total: 0 });
      }),
    );
    await client().customers.list({
      updatedAfter: new Date('2026-01-02T03:04:05Z'),
      ids: ['a', 'b'],
      includeDeleted: true,
    });
    expect(url?.searchParams.get('updatedAfter')).toBe('2026-01-02T03:04:05.000Z');
    expect(url?.searchParams.get('ids')).toBe('a,b');
    expect(url?.searchParams.get('includeDeleted')).toBe('true');
  });
});

describe('request()', () => {
  it('calls any declared endpoint: a Page for lists (with the Date header), the record otherwise', async () => {
    server.use(
      http.get(`${BASE}/cars`, ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        return HttpResponse.json(
          { data: [car(`c${page}`)], page, limit: 1, total: 2 },
          { headers: { date: 'Mon, 23 Nov 2026 05:00:00 GMT' } },
        );
      }),
      http.get(`${BASE}/cars/:id`, ({ params }) => HttpResponse.json({ data: car(String(params.id)) })),
    );
    const c = client();
    const { data: page, response } = await c.request(apiEndpoints.listCars, { query: { limit: 1 } }).withResponse();
    expect(response.headers.get('date')).toBe('Mon, 23 Nov 2026 05:00:00 GMT');
    expect(page).toMatchObject({ page: 1, limit: 1, total: 2 });
    expect((await page.nextPage()).data).toEqual([car('c2')]);
    const ids: string[] = [];
    for await (const item of c.request(apiEndpoints.listCars, { query: { limit: 1 } })) ids.push(item.id);
    expect(ids).toEqual(['c1', 'c2']);
    expect(await c.request(apiEndpoints.getCar, { params: { carId: 'x1' } })).toEqual(car('x1'));
  });
});

describe('errors', () => {
  it.each([
    [400, 'Validation failed', 'validation_error', BadRequestError],
    [401, 'API key revoked', 'unauthorized', AuthenticationError],
    [403, 'Missing scope: write:cars', 'forbidden', PermissionDeniedError],
    [404, 'Car not found', 'not_found', NotFoundError],
    [409, 'Spot occupied', 'conflict', ConflictError],
    [429, 'Slow down', 'rate_limited', RateLimitError],
    [500, 'Internal server error', 'internal_error', InternalServerError],
  ])('maps %i to its class with status, code, details, requestId and headers', async (status, message, code, Class) => {
    const details = status === 400 ? [{ path: 'year', message: 'Too small' }] : null;
    server.use(http.get(`${BASE}/cars/:id`, () => apiError(status, message, code, details, { 'retry-after': '0' })));
    const error = await client({ maxRetries: 0 })
      .cars.get('x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(VsfError);
    expect(error).toMatchObject({ status, code, details, requestId: 'req-1', message });
    expect((error as VsfError).headers?.get('retry-after')).toBe('0');
  });

  it('gives a 400 without issues (invalid_json) an empty details list, never null', async () => {
    server.use(http.post(`${BASE}/cars`, () => apiError(400, 'Body is not valid JSON', 'invalid_json', null)));
    const error = await client({ maxRetries: 0 })
      .cars.create({ year: 2000, make: 'A', model: 'B' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ code: 'invalid_json', details: [] });
  });

  it('names the missing scope and the retry-after seconds', async () => {
    server.use(http.get(`${BASE}/cars/:id`, () => apiError(403, 'Missing scope: read:cars', 'forbidden')));
    const denied = (await client()
      .cars.get('x')
      .catch((e: unknown) => e)) as PermissionDeniedError;
    expect(denied.missingScope).toBe('read:cars');
    server.use(
      http.get(`${BASE}/cars/:id`, () => apiError(429, 'Slow down', 'rate_limited', null, { 'retry-after': '7' })),
    );
    const limited = (await client({ maxRetries: 0 })
      .cars.get('x')
      .catch((e: unknown) => e)) as RateLimitError;
    expect(limited.retryAfter).toBe(7);
  });

  it('reports an unreachable server as a ConnectionError', async () => {
    server.use(http.get(`${BASE}/cars/:id`, () => HttpResponse.error()));
    const error = await client({ maxRetries: 0 })
      .cars.get('x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
  });

  it('says why a real connection failed, not just "fetch failed"', async () => {
    // A port just freed: nothing listens on it, so the connection is refused.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    server.close();
    try {
      const refused = new VsfClient({
        apiKey: KEY,
        baseUrl: `http://127.0.0.1:${port}/api/v1`,
        maxRetries: 0,
        logLevel: 'off',
      });
      const error = (await refused.cars.get('x').catch((e: unknown) => e)) as ConnectionError;
      expect(error).toBeInstanceOf(ConnectionError);
      expect(error.reason).toBe('connection refused');
      expect(error.message).toBe(`GET http://127.0.0.1:${port}/api/v1/cars/x failed: connection refused`);
    } finally {
      server.listen({ onUnhandledRequest: 'error' });
    }
  });
});

describe('retries', () => {
  it.each([500, 502, 503, 408, 429])('retries %i up to maxRetries (default 2) then throws', async (status) => {
    const calls = serveCar(() => apiError(status, 'nope', 'x', null, { 'retry-after': '0' }));
    await expect(client().cars.get('x')).rejects.toBeInstanceOf(VsfError);
    expect(calls()).toBe(3);
  });

  it.each([400, 401, 403, 404])('never retries %i', async (status) => {
    const calls = serveCar(() => apiError(status, 'nope', 'x'));
    await expect(client({ maxRetries: 5 }).cars.get('x')).rejects.toBeInstanceOf(VsfError);
    expect(calls()).toBe(1);
  });

  it('leaves no abort listener behind on a long-lived signal once a retry has slept', async () => {
    const calls = serveCar((call, id) => {
      // Every first attempt fails, so every call sleeps once before its retry.
      return call % 2 === 1
        ? apiError(503, 'down', 'internal_error', null, { 'retry-after': '0' })
        : HttpResponse.json({ data: car(id) });
    });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const shared = new AbortController();
    try {
      const c = client({ maxRetries: 1 });
      for (let i = 0; i < 15; i++) await c.cars.get(`c${i}`, { signal: shared.signal });
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(calls()).toBe(30);
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });

  it('names the cause the same way whatever runtime fetch failed, and never retries a port fetch refuses', async () => {
    const failing = (error: unknown) => {
      let calls = 0;
      const fetchImpl = (async () => {
        calls += 1;
        throw error;
      }) as typeof fetch;
      return { fetchImpl, calls: () => calls };
    };
    const url = `${BASE}/cars/x`;
    const deno = failing(
      new TypeError(
        `error sending request for url (${url}): client error (Connect): tcp connect error: Connection refused (os error 111)`,
      ),
    );
    const bun = failing(
      Object.assign(new Error('Unable to connect. Is the computer able to access the url?'), {
        code: 'ConnectionRefused',
      }),
    );
    for (const runtime of [deno, bun]) {
      const error = (await client({ fetch: runtime.fetchImpl, maxRetries: 0 })
        .cars.get('x')
        .catch((e: unknown) => e)) as ConnectionError;
      expect(error).toBeInstanceOf(ConnectionError);
      expect(error.message).toBe(`GET ${url} failed: connection refused`);
      expect(error.kind).toBe('refused');
    }
    // Node's fetch refuses the Fetch standard's bad ports (6000, 6667, 10080, …) without connecting: no retry helps.
    const badPort = failing(new TypeError('fetch failed', { cause: new Error('bad port') }));
    const error = (await client({ fetch: badPort.fetchImpl, maxRetries: 2 })
      .cars.get('x')
      .catch((e: unknown) => e)) as ConnectionError;
    expect(error.kind).toBe('port_blocked');
    expect(error.message).toMatch(/failed: port blocked by fetch/);
    expect(badPort.calls()).toBe(1);
    // A refused connection is still retried: a restarting server refuses for a moment.
    const restarting = failing(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    await client({ fetch: restarting.fetchImpl, maxRetries: 1 })
      .cars.get('x')
      .catch(() => undefined);
    expect(restarting.calls()).toBe(2);
  });

  it('does not retry at all with maxRetries: 0', async () => {
    const calls = serveCar(() => apiError(503, 'down', 'internal_error'));
    await expect(client({ maxRetries: 0 }).cars.get('x')).rejects.toBeInstanceOf(InternalServerError);
    expect(calls()).toBe(1);
  });

  it('succeeds after transient failures and connection resets', async () => {
    const calls = serveCar((call, id) => {
      if (call === 1) return HttpResponse.error();
      if (call === 2) return apiError(502, 'bad gateway', 'internal_error', null, { 'retry-after': '0' });
      return HttpResponse.json({ data: car(id) });
    });
    expect(await client().cars.get('ok')).toMatchObject({ id: 'ok' });
    expect(calls()).toBe(3);
  });

  it('waits what Retry-After says (seconds or an HTTP date) before retrying', async () => {
    const sleeps: number[] = [];
    const realSetTimeout = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number) => {
      // The call's own timeouts (10 s for the response, 60 s for the attempt) are not a retry's wait.
      const timeout = ms !== undefined && ms >= 10_000;
      if (ms && ms > 100 && !timeout) sleeps.push(ms);
      return realSetTimeout(fn, ms && !timeout ? 0 : ms);
    }) as typeof setTimeout);
    serveCar((call) => {
      if (call === 1) return apiError(429, 'slow', 'rate_limited', null, { 'retry-after': '3' });
      if (call === 2) {
        return apiError(503, 'down', 'internal_error', null, {
          'retry-after': new Date(Date.now() + 5000).toUTCString(),
        });
      }
      return HttpResponse.json({ data: car('x') });
    });
    await client().cars.get('x');
    vi.restoreAllMocks();
    expect(sleeps[0]).toBe(3000);
    expect(sleeps[1]).toBeGreaterThan(3000);
    expect(sleeps[1]).toBeLessThanOrEqual(5000);
  });

  it('gives up at once when Retry-After asks for more than a minute', async () => {
    const calls = serveCar(() => apiError(429, 'slow', 'rate_limited', null, { 'retry-after': '120' }));
    await expect(client().cars.get('x')).rejects.toBeInstanceOf(RateLimitError);
    expect(calls()).toBe(1);
  });

  it('retries a 409 only when the same idempotency key is still in flight', async () => {
    let calls = 0;
    server.use(
      http.post(`${BASE}/cars`, () => {
        calls++;
        if (calls === 1)
          return apiError(409, 'in progress', 'conflict', { reason: 'idempotency_in_flight' }, { 'retry-after': '0' });
        return HttpResponse.json({ data: car('new') }, { status: 201 });
      }),
    );
    expect(await client().cars.create({ year: 2000, make: 'A', model: 'B' })).toMatchObject({ id: 'new' });
    expect(calls).toBe(2);
    let conflicts = 0;
    server.use(
      http.post(`${BASE}/cars`, () => {
        conflicts++;
        return apiError(409, 'reused', 'conflict', { reason: 'idempotency_key_reused' });
      }),
    );
    await expect(client().cars.create({ year: 2000, make: 'A', model: 'B' })).rejects.toBeInstanceOf(ConflictError);
    expect(conflicts).toBe(1);
  });
});

describe('idempotency keys', () => {
  it('sends one Idempotency-Key per POST, the same on every retry, and a new one per call', async () => {
    const keys: (string | null)[] = [];
    server.use(
      http.post(`${BASE}/cars`, ({ request }) => {
        keys.push(request.headers.get('idempotency-key'));
        if (keys.length % 3 !== 0) return apiError(503, 'down', 'internal_error', null, { 'retry-after': '0' });
        return HttpResponse.json({ data: car('c') }, { status: 201 });
      }),
    );
    const c = client();
    await c.cars.create({ year: 2000, make: 'A', model: 'B' });
    await c.cars.create({ year: 2000, make: 'A', model: 'B' });
    expect(keys).toHaveLength(6);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys.slice(0, 3)).size).toBe(1);
    expect(new Set(keys.slice(3)).size).toBe(1);
    expect(keys[3]).not.toBe(keys[0]);
  });

  it("sends the caller's own key, and none on GET or PATCH", async () => {
    const seen: (string | null)[] = [];
    server.use(
      http.post(`${BASE}/cars`, ({ request }) => {
        seen.push(request.headers.get('idempotency-key'));
        return HttpResponse.json({ data: car('c') }, { status: 201 });
      }),
      http.patch(`${BASE}/cars/:id`, ({ request }) => {
        seen.push(request.headers.get('idempotency-key'));
        return HttpResponse.json({ data: car('c') });
      }),
    );
    await client().cars.create({ year: 2000, make: 'A', model: 'B' }, { idempotencyKey: 'order-42' });
    await client().cars.update('c', { color: 'red' });
    expect(seen).toEqual(['order-42', null]);
  });
});

describe('timeouts', () => {
  it('times out a slow response and retries it', async () => {
    const calls = serveCar(async () => {
      await new Promise((r) => setTimeout(r, 500));
      return HttpResponse.json({ data: car('x') });
    });
    const error = await client({ timeout: 50, maxRetries: 1 })
      .cars.get('x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(calls()).toBe(2);
  });

  it('counts reading a slow body against the timeout', async () => {
    server.use(
      http.get(`${BASE}/cars/:id`, () => {
        const stream = new ReadableStream({
          async start(controller) {
            controller.enqueue(new TextEncoder().encode('{"data":'));
            await new Promise((r) => setTimeout(r, 500));
            controller.enqueue(new TextEncoder().encode('{}}'));
            controller.close();
          },
        });
        return new HttpResponse(stream, { headers: { 'content-type': 'application/json' } });
      }),
    );
    const error = await client({ maxRetries: 0 })
      .cars.get('x', { timeout: 50 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it('stops when the caller aborts, without retrying', async () => {
    const calls = serveCar(async () => {
      await new Promise((r) => setTimeout(r, 300));
      return HttpResponse.json({ data: car('x') });
    });
    const controller = new AbortController();
    const pending = client().cars.get('x', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user cancelled')), 20);
    await expect(pending).rejects.toThrow('user cancelled');
    expect(calls()).toBe(1);
  });
});

describe('pagination', () => {
  const listHandler = (total: number) =>
    http.get(`${BASE}/cars`, ({ request }) => {
      const url = new URL(request.url);
      const page = Number(url.searchParams.get('page') ?? 1);
      const limit = Number(url.searchParams.get('limit') ?? 50);
      const start = (page - 1) * limit;
      const data = Array.from({ length: Math.max(0, Math.min(limit, total - start)) }, (_, i) => car(`c${start + i}`));
      return HttpResponse.json({ data, page, limit, total });
    });

  it.each([
    [0, 1],
    [1, 1],
    [199, 1],
    [200, 1],
    [201, 2],
    [400, 2],
    [401, 3],
  ])('walks %i records in %i pages of 200 and stops at page*limit >= total', async (total, pages) => {
    const requested: number[] = [];
    server.use(listHandler(total));
    server.events.on('request:start', ({ request }) => {
      requested.push(Number(new URL(request.url).searchParams.get('page')));
    });
    const ids: string[] = [];
    for await (const c of client().cars.listAll()) ids.push(c.id);
    server.events.removeAllListeners();
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    expect(requested).toEqual(Array.from({ length: pages }, (_, i) => i + 1));
  });

  it('gives one page with hasNextPage/nextPage, and for-await over list() walks on', async () => {
    server.use(listHandler(5));
    const first = await client().cars.list({ limit: 2 });
    expect(first).toMatchObject({ page: 1, limit: 2, total: 5 });
    expect(first.hasNextPage()).toBe(true);
    const third = await (await first.nextPage()).nextPage();
    expect(third.data.map((c) => c.id)).toEqual(['c4']);
    expect(third.hasNextPage()).toBe(false);
    await expect(third.nextPage()).rejects.toThrow(/No page after page 3/);
    const all: string[] = [];
    for await (const c of client().cars.list({ limit: 2 })) all.push(c.id);
    expect(all).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
  });
});

describe('logging', () => {
  it('logs at debug each request, its status, duration and request id, and each retry decision', async () => {
    const lines: { message: string; fields: Record<string, unknown> | undefined }[] = [];
    const push = (message: string, fields?: Record<string, unknown>) => lines.push({ message, fields });
    const logger: Logger = { debug: push, info: push, warn: push, error: push };
    serveCar((call) =>
      call < 2
        ? apiError(503, 'busy', 'internal_error', null, { 'retry-after': '0', 'x-request-id': 'req-503' })
        : HttpResponse.json({ data: car('x') }, { headers: { 'x-request-id': 'req-200' } }),
    );
    server.use(http.get(`${BASE}/cars`, () => apiError(400, 'Validation failed', 'validation_error')));
    await client({ logLevel: 'debug', logger }).cars.get('x');
    expect(lines.map((l) => l.message)).toEqual([
      `GET ${BASE}/cars/x`,
      expect.stringMatching(new RegExp(`^GET ${BASE}/cars/x -> 503 in \\d+ ms$`)),
      `retrying GET ${BASE}/cars/x in 0 ms after: busy`,
      `GET ${BASE}/cars/x`,
      expect.stringMatching(/-> 200 in \d+ ms$/),
    ]);
    expect(lines[1]?.fields).toMatchObject({ attempt: 1, status: 503, requestId: 'req-503' });
    expect(lines[1]?.fields?.durationMs).toEqual(expect.any(Number));
    expect(lines[2]?.fields).toMatchObject({ attempt: 1, status: 503, delayMs: 0, reason: 'busy' });
    expect(lines[4]?.fields).toMatchObject({ attempt: 2, status: 200, requestId: 'req-200' });
    lines.length = 0;
    await expect(client({ logLevel: 'debug', logger }).cars.list()).rejects.toThrow('Validation failed');
    expect(lines.at(-1)).toMatchObject({
      message: `not retrying GET ${BASE}/cars?page=1: the error is not retryable`,
      fields: { attempt: 1, status: 400 },
    });
  });

  it('never logs the API key', async () => {
    const lines: string[] = [];
    const logger: Logger = {
      debug: (m, f) => lines.push(m + JSON.stringify(f)),
      info: (m, f) => lines.push(m + JSON.stringify(f)),
      warn: (m, f) => lines.push(m + JSON.stringify(f)),
      error: (m, f) => lines.push(m + JSON.stringify(f)),
    };
    serveCar((call) =>
      call < 2
        ? apiError(503, `echo ${KEY}`, 'internal_error', null, { 'retry-after': '0' })
        : HttpResponse.json({ data: car('x') }),
    );
    await client({ logLevel: 'debug', logger }).cars.get('x');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join('\n')).not.toContain(KEY.split('.')[1]);
    expect(lines.join('\n')).toContain('vsf_abcdefghijkl.****');
  });
});

describe('routes beside the API base (GET /api/media/{id})', () => {
  const id = '5b0f2a5e-8c1d-4c39-9a53-2f8f1f0c6a11';
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);

  it.each([
    ['http://vsf.test/api/v1', `http://vsf.test/api/media/${id}`],
    // A proxy's prefix in front of the API path is kept.
    ['http://proxy.test/vsf/api/v1/', `http://proxy.test/vsf/api/media/${id}`],
    // A base URL that does not end in the API path: the media path from its origin.
    ['http://odd.test/custom', `http://odd.test/api/media/${id}`],
  ])('base %s downloads from %s, resolving to the unread Response', async (baseUrl, expected) => {
    let seen: { url: string; accept: string | null } | undefined;
    server.use(
      http.get('*/media/:id', ({ request }) => {
        seen = { url: request.url, accept: request.headers.get('accept') };
        return new HttpResponse(png, { headers: { 'content-type': 'image/png' } });
      }),
    );
    const response = await client({ baseUrl }).media.download(id);
    expect(seen).toEqual({ url: expected, accept: '*/*' });
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(png);
  });

  it('throws the API error of a failed download like any other call', async () => {
    server.use(http.get('*/api/media/:id', () => apiError(404, 'Media not found', 'not_found')));
    await expect(client().media.download(id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
