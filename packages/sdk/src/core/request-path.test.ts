import { describe, expect, it } from 'vitest';
import { VsfClient } from '../generated/vsf-client.js';
import { AttemptTimeout } from './attempt-timeout.js';
import type { ClientOptions } from './client-options.js';
import { InternalServerError, TimeoutError } from './errors.js';
import type { Logger } from './logger.js';

// Body-less calls go to `fetch` without ky, calls with a body through ky: both must send the same headers,
// time out, abort and retry alike. A custom fetch sees exactly what each path hands it.

const BASE = 'http://vsf.test/api/v1';
const KEY = 'vsf_abcdefghijkl.SECRETSECRETSECRETSECRETSECRETSECRETSECRET123';
const car = (id: string) => ({ id, year: 1999, make: 'A', model: 'B' });
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

interface Seen {
  input: Request | string | URL;
  init: RequestInit | undefined;
  request: Request;
}

/** A quiet client of the test server through `fetch`. */
function clientFetching(fetch: typeof globalThis.fetch, options: Partial<ClientOptions> = {}) {
  return new VsfClient({ apiKey: KEY, baseUrl: BASE, logLevel: 'off', ...options, fetch });
}

/** A client whose fetch records each call and answers with `answer` (the n-th call, from 1). */
function recording(
  answer: (n: number, request: Request) => Response | Promise<Response>,
  options: Partial<ClientOptions> = {},
) {
  const seen: Seen[] = [];
  const client = clientFetching(async (input, init) => {
    const request = new Request(input, init);
    seen.push({ input, init, request });
    return answer(seen.length, request);
  }, options);
  return { client, seen };
}

/** A fetch that never answers unless its signal aborts it; `ignoreAbort` makes it hang regardless. */
const hanging =
  (signals: AbortSignal[], ignoreAbort = false) =>
  (input: Request | string | URL, init?: RequestInit) =>
    new Promise<Response>((_resolve, reject) => {
      // ky hands over a Request carrying the signal, the direct path a URL and an init.
      const signal = (init?.signal ?? (input as Request).signal) as AbortSignal;
      signals.push(signal);
      if (!ignoreAbort) signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });

describe('a body-less call goes straight to the custom fetch', () => {
  it('with the URL, the method and the same headers ky sent, and a signal', async () => {
    const { client, seen } = recording(() => json({ data: car('c1') }), { headers: { 'x-team': 'lot-7' } });
    expect(await client.cars.get('c 1')).toEqual(car('c1'));
    const [{ input, init, request }] = seen as [Seen];
    expect(input).toBe(`${BASE}/cars/c%201`);
    expect(init?.method).toBe('GET');
    expect(init?.signal).toBeInstanceOf(AbortSignal);
    expect(Object.fromEntries(request.headers)).toEqual({
      accept: 'application/json',
      authorization: `Bearer ${KEY}`,
      'user-agent': expect.stringMatching(/^vsf-sdk\/\d+\.\d+\.\d+/),
      'x-team': 'lot-7',
    });
  });

  it("lets a call's headers win, and never leaks one call's headers or idempotency key into the next", async () => {
    const { client, seen } = recording((_n, request) =>
      request.method === 'POST' ? json({ data: car('n') }, 201) : json({ data: car('c') }),
    );
    await client.cars.get('c', { headers: { accept: 'application/vnd.test+json', 'x-trace': 't1' } });
    await client.appointments.cancel('a1');
    await client.cars.get('c');
    const headers = seen.map(({ request }) => Object.fromEntries(request.headers));
    expect(headers[0]).toMatchObject({ accept: 'application/vnd.test+json', 'x-trace': 't1' });
    // A POST without a body takes the same path, with its idempotency key.
    expect(seen[1]?.init?.method).toBe('POST');
    expect(headers[1]?.['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(headers[2]).not.toHaveProperty('x-trace');
    expect(headers[2]).not.toHaveProperty('idempotency-key');
    expect(headers[2]?.accept).toBe('application/json');
  });

  it('uses the x-api-key header when asked', async () => {
    const { client, seen } = recording(() => json({ data: car('c') }), { authHeader: 'x-api-key' });
    await client.cars.get('c');
    expect(seen[0]?.request.headers.get('x-api-key')).toBe(KEY);
    expect(seen[0]?.request.headers.get('authorization')).toBeNull();
  });

  it('notes the extensions the server announces', async () => {
    const { client } = recording(() => json({ data: car('c') }, 200, { 'vsf-extensions': 'binary-upload, x' }));
    await client.cars.get('c');
    expect([...client.serverExtensions]).toEqual(['binary-upload', 'x']);
  });
});

describe('a call with a body still goes through ky', () => {
  it('as a Request carrying the JSON body, its content type and an idempotency key', async () => {
    const { client, seen } = recording(() => json({ data: car('n') }, 201));
    await client.cars.create({ year: 2000, make: 'A', model: 'B' }, { idempotencyKey: 'k-1' });
    const [{ input, request }] = seen as [Seen];
    expect(input).toBeInstanceOf(Request);
    expect(request.headers.get('content-type')).toBe('application/json');
    expect(request.headers.get('idempotency-key')).toBe('k-1');
    expect(request.headers.get('authorization')).toBe(`Bearer ${KEY}`);
    expect(await request.json()).toEqual({ year: 2000, make: 'A', model: 'B' });
  });

  it('times out there too', async () => {
    const signals: AbortSignal[] = [];
    const client = clientFetching(hanging(signals));
    const error = await client.cars
      .create({ year: 2000, make: 'A', model: 'B' }, { timeout: 30, maxRetries: 0 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(signals[0]?.aborted).toBe(true);
  });
});

describe('timeouts on the direct path', () => {
  it('abort the request, throw TimeoutError and retry with a new signal', async () => {
    const signals: AbortSignal[] = [];
    const client = clientFetching(hanging(signals));
    const error = await client.cars.get('c', { timeout: 30, maxRetries: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toBe(`GET ${BASE}/cars/c timed out after 30 ms`);
    expect((error as TimeoutError).cause).toBeInstanceOf(AttemptTimeout);
    expect(signals).toHaveLength(2);
    expect(signals.every((s) => s.aborted)).toBe(true);
    expect(signals[0]).not.toBe(signals[1]);
  });

  it('fire even when the fetch implementation ignores the abort', async () => {
    const signals: AbortSignal[] = [];
    const client = clientFetching(hanging(signals, true));
    const started = Date.now();
    const error = await client.cars.get('c', { timeout: 30, maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('count a body that arrives too slowly, and abort its request', async () => {
    const signals: AbortSignal[] = [];
    const client = clientFetching(
      async (_input, init) => {
        signals.push(init?.signal as AbortSignal);
        const stream = new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"data":'));
          },
        });
        return new Response(stream, { headers: { 'content-type': 'application/json' } });
      },
      { maxRetries: 0 },
    );
    const error = await client.cars.get('c', { timeout: 40 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(signals[0]?.aborted).toBe(true);
  });

  it('is cleared once the call is done: a finished call leaves no timer behind', async () => {
    const { client } = recording(() => json({ data: car('c') }));
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    await client.cars.get('c', { timeout: 60_000 });
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBe(before);
  });
});

describe('the response timeout, apart from the attempt timeout', () => {
  it('gives up on a link that passes nothing after responseTimeout, not timeout, and says so', async () => {
    const signals: AbortSignal[] = [];
    const client = clientFetching(hanging(signals), { responseTimeout: 30, timeout: 60_000, maxRetries: 0 });
    const error = await client.cars.get('c').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toBe(`GET ${BASE}/cars/c timed out after 30 ms waiting for the response`);
    expect((error as TimeoutError).cause).toMatchObject({ phase: 'response', ms: 30 });
    expect(signals[0]?.aborted).toBe(true);
  });

  it('on the ky path too, with the time to send the body on top', async () => {
    const signals: AbortSignal[] = [];
    const client = clientFetching(hanging(signals), { responseTimeout: 30, maxRetries: 0 });
    const error = await client.cars.create({ year: 2000, make: 'A', model: 'B' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    // 30 ms and ~6 ms for ~50 bytes at 8 KiB/s.
    expect((error as TimeoutError).message).toMatch(/^POST \S+ timed out after 3\d ms waiting for the response$/);
    expect(signals[0]?.aborted).toBe(true);
  });

  it('does not cut a response whose headers came in time but whose body takes longer', async () => {
    const client = clientFetching(
      async () => {
        const text = JSON.stringify({ data: car('slow') });
        const stream = new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(text.slice(0, 5)));
            setTimeout(() => {
              controller.enqueue(new TextEncoder().encode(text.slice(5)));
              controller.close();
            }, 80);
          },
        });
        return new Response(stream, { headers: { 'content-type': 'application/json' } });
      },
      { responseTimeout: 20, timeout: 5_000, maxRetries: 0 },
    );
    expect(await client.cars.get('slow')).toEqual(car('slow'));
  });

  it("waits a call's own timeout for the answer when the call gives no response timeout (a long poll)", async () => {
    const client = clientFetching(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 60));
        return json({ data: car('polled') });
      },
      { responseTimeout: 20, maxRetries: 0 },
    );
    expect(await client.cars.get('polled', { timeout: 5_000 })).toEqual(car('polled'));
    const error = await client.cars.get('polled', { timeout: 5_000, responseTimeout: 20 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it('tells onRetry about each retry: the failed attempt, why, and the wait', async () => {
    const notices: { attempt: number; delayMs: number; message: string }[] = [];
    const signals: AbortSignal[] = [];
    const client = clientFetching(hanging(signals), {
      responseTimeout: 10,
      maxRetries: 2,
      onRetry: ({ attempt, delayMs, error }) => notices.push({ attempt, delayMs, message: error.message }),
    });
    await client.cars.get('c').catch(() => {});
    expect(notices.map((n) => n.attempt)).toEqual([1, 2]);
    expect(notices.every((n) => n.delayMs > 0 && /waiting for the response/.test(n.message))).toBe(true);
    expect(signals).toHaveLength(3);
  });

  it('refuses a response timeout that is not a positive number', () => {
    expect(() => clientFetching(fetch, { responseTimeout: 0 })).toThrow(/responseTimeout must be/);
  });
});

describe("the caller's signal on the direct path", () => {
  it('aborts the request without a retry, rejecting with its reason', async () => {
    const signals: AbortSignal[] = [];
    const client = clientFetching(hanging(signals));
    const controller = new AbortController();
    const pending = client.cars.get('c', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user cancelled')), 10);
    await expect(pending).rejects.toThrow('user cancelled');
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(true);
  });

  it('rejects at once, sending nothing, when already aborted', async () => {
    const { client, seen } = recording(() => json({ data: car('c') }));
    const controller = new AbortController();
    controller.abort(new Error('too late'));
    await expect(client.cars.get('c', { signal: controller.signal })).rejects.toThrow('too late');
    expect(seen).toHaveLength(0);
  });

  it('still aborts a downloaded body left for the caller to read', async () => {
    const signals: AbortSignal[] = [];
    const client = clientFetching(async (_input, init) => {
      signals.push(init?.signal as AbortSignal);
      return new Response(new Uint8Array([1, 2, 3]), { headers: { 'content-type': 'image/png' } });
    });
    const controller = new AbortController();
    const response = await client.media.download('5b0f2a5e-8c1d-4c39-9a53-2f8f1f0c6a11', {
      signal: controller.signal,
    });
    expect(response.bodyUsed).toBe(false);
    controller.abort();
    expect(signals[0]?.aborted).toBe(true);
  });
});

describe('retries after a first attempt made outside p-retry', () => {
  it('retry a failed first attempt with the same logging, delays and attempt numbers', async () => {
    const lines: string[] = [];
    const push = (message: string, fields?: Record<string, unknown>) =>
      lines.push(`${message} ${JSON.stringify(fields)}`);
    const logger: Logger = { debug: push, info: push, warn: push, error: push };
    const { client, seen } = recording(
      (n) =>
        n < 3 ? json({ error: 'busy', code: 'internal_error' }, 503, { 'retry-after': '0' }) : json({ data: car('c') }),
      { logLevel: 'info', logger },
    );
    expect(await client.cars.get('c')).toEqual(car('c'));
    expect(seen).toHaveLength(3);
    expect(lines).toEqual([
      expect.stringMatching(/^retrying GET .*\/cars\/c in 0 ms after: busy .*"attempt":1/),
      expect.stringMatching(/^retrying GET .*\/cars\/c in 0 ms after: busy .*"attempt":2/),
    ]);
  });

  it('give up after maxRetries with the last error', async () => {
    const { client, seen } = recording(() =>
      json({ error: 'down', code: 'internal_error' }, 503, { 'retry-after': '0' }),
    );
    await expect(client.cars.get('c', { maxRetries: 2 })).rejects.toBeInstanceOf(InternalServerError);
    expect(seen).toHaveLength(3);
  });

  it("refuse a retry count p-retry refuses, before sending anything, with p-retry's error", async () => {
    const { client, seen } = recording(() => json({ data: car('c') }));
    await expect(client.cars.get('c', { maxRetries: -1 })).rejects.toThrow(/non-negative/);
    expect(seen).toHaveLength(0);
  });

  it('stop retrying when the caller aborts during the wait', async () => {
    const { client, seen } = recording(() =>
      json({ error: 'slow', code: 'rate_limited' }, 429, { 'retry-after': '5' }),
    );
    const controller = new AbortController();
    const pending = client.cars.get('c', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('enough')), 30);
    await expect(pending).rejects.toThrow('enough');
    expect(seen).toHaveLength(1);
  });
});

describe('a path parameter', () => {
  it('is required, named in the error, and rejects the call instead of throwing from it', async () => {
    const { client, seen } = recording(() => json({ data: car('c') }));
    const call = client.cars.get('');
    await expect(call).rejects.toThrow('Missing path parameter carId for getCar');
    expect(seen).toHaveLength(0);
  });
});
