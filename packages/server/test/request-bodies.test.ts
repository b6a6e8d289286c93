import { type IncomingHttpHeaders, request } from 'node:http';
import { Writable } from 'node:stream';
import { ALL_SCOPES } from '@vsf/contract';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../src/runtime/start-server.js';
import { migratedPglite } from '../src/testing/migrated-pglite.js';
import { testServerConfig } from '../src/testing/start-test-server.js';
import { TINY_PNG } from './support/endpoint-fixtures.js';

// Request bodies from slow and odd clients, on the real server (startServer) with its timeouts shortened:
// a body that keeps arriving is read however long it takes, one that stops or drags past the deadline is a
// 408 ApiError, a body nobody reads is cut off, `100 Continue` waits for authentication, and a client that
// leaves mid-body is not a server error.
// Generous against a loaded machine: a client's gaps are 100 to 120 ms, under a tenth of the idle timeout.
const TIMEOUTS = { idleMs: 1_200, deadlineMs: 4_000, unclaimedMs: 1_200 };
const adminToken = `bodies-admin-${Math.random().toString(36).slice(2)}`;
const logLines: { level: number; msg: string; res?: { statusCode: number } }[] = [];
let running: RunningServer;
let origin: string;
let key: string;
let carId: string;
let sessionId: string;

const png = Buffer.from(TINY_PNG, 'base64');
/** A PNG of `size` bytes: the tiny one, padded (the server checks the signature, not the rest). */
const pngOf = (size: number) => Buffer.concat([png, Buffer.alloc(size - png.length)]);

interface Sent {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** Interim responses seen before the final one (`100 Continue`). */
  interim: number[];
  /** When the socket closed, in ms after the request started; undefined while it is open. */
  closedAfterMs?: number;
}

/**
 * One request on its own connection, its body written as `chunks` with `gapMs` between them; `stopAfter`
 * chunks are written and then nothing more (the connection stays open). Resolves with the final response.
 */
function send(
  path: string,
  options: {
    headers?: Record<string, string>;
    body?: Buffer;
    chunks?: number;
    gapMs?: number;
    stopAfter?: number;
    waitForContinue?: boolean;
  } = {},
): Promise<Sent> {
  const body = options.body ?? Buffer.alloc(0);
  const chunks = options.chunks ?? 1;
  const size = Math.ceil(body.length / chunks);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const interim: number[] = [];
    const req = request(`${origin}${path}`, {
      method: 'POST',
      headers: { 'content-length': String(body.length), ...options.headers },
    });
    let written = 0;
    const writeNext = () => {
      if (req.destroyed) return;
      if (options.stopAfter !== undefined && written >= options.stopAfter) return;
      req.write(body.subarray(written * size, (written + 1) * size));
      written++;
      if (written * size >= body.length) req.end();
      else setTimeout(writeNext, options.gapMs ?? 0);
    };
    req.on('information', (info) => interim.push(info.statusCode));
    if (options.waitForContinue) req.on('continue', writeNext);
    else writeNext();
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        const sent: Sent = {
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(parts).toString(),
          interim,
        };
        // The connection's fate is part of the answer: report when it closes, if it does soon.
        const timer = setTimeout(() => resolve(sent), 2_500);
        req.socket?.once('close', () => {
          clearTimeout(timer);
          sent.closedAfterMs = performance.now() - started;
          resolve(sent);
        });
        req.socket?.resume();
      });
    });
    req.on('error', reject);
  });
}

const auth = () => ({ authorization: `Bearer ${key}` });
const photoPath = (filename: string) => `/api/v1/cars/${carId}/photos?sessionId=${sessionId}&filename=${filename}`;
const json = (sent: Sent) => JSON.parse(sent.body) as { data?: { id: string }; code?: string; error?: string };

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${origin}${path}`, {
    method,
    headers: { ...auth(), ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return (await res.json()) as { data: { id: string; sessionId?: string } & Record<string, unknown> };
}

/** A photo upload of `size` bytes in either form the route takes: raw bytes (binary-upload) or base64 JSON. */
function photoUpload(form: 'raw' | 'json', filename: string, size: number) {
  if (form === 'raw')
    return { path: photoPath(filename), headers: { ...auth(), 'content-type': 'image/png' }, body: pngOf(size) };
  const fields = { sessionId, filename, contentType: 'image/png', base64: pngOf(size).toString('base64') };
  return {
    path: `/api/v1/cars/${carId}/photos`,
    headers: { ...auth(), 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(fields)),
  };
}

const photoCount = async () =>
  ((await api('GET', `/api/v1/cars/${carId}/photos?limit=200`)) as unknown as { total: number }).total;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
      done();
    },
  });
  const databaseUrl = process.env.TEST_DATABASE_URL;
  running = await startServer(testServerConfig({ databaseUrl, adminToken, bodyTimeouts: TIMEOUTS }), {
    bootstrapDemo: false,
    logger: pino({ level: 'info' }, sink),
    ...(databaseUrl ? {} : { pglite: await migratedPglite() }),
  });
  origin = running.url.replace('localhost', '127.0.0.1');
  const admin = (path: string, body: unknown) =>
    fetch(`${origin}/admin/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<{ data: { id: string; key: string } }>);
  const team = (await admin('/teams', { name: 'Bodies' })).data;
  key = (await admin(`/teams/${team.id}/keys`, { name: 'k', scopes: ALL_SCOPES })).data.key;
  const zone = (await api('POST', '/api/v1/parking-zones', { name: 'Z' })).data.id;
  carId = (await api('POST', '/api/v1/cars', { year: 2001, make: 'Slow', model: 'Link' })).data.id;
  sessionId = (await api('POST', `/api/v1/cars/${carId}/events`, { activityType: 'drop_off', parkingZoneId: zone }))
    .data.sessionId as string;
});
afterAll(async () => {
  await running?.close();
});

describe('request bodies from slow clients', () => {
  it.each(['raw', 'json'] as const)(
    'reads a %s body that keeps arriving, however long it takes in all',
    async (form) => {
      const { path, ...upload } = photoUpload(form, `slow-${form}.png`, 40_000);
      // 16 chunks 120 ms apart: past the unclaimed-body cut-off and the idle timeout in all, never idle.
      const sent = await send(path, { ...upload, chunks: 16, gapMs: 120 });
      expect(sent.status, sent.body).toBe(201);
    },
  );

  it.each(['raw', 'json'] as const)(
    'answers 408 when a %s body stops arriving, stores nothing, closes the connection',
    async (form) => {
      const before = await photoCount();
      const { path, ...upload } = photoUpload(form, 'stalled.png', 40_000);
      const sent = await send(path, { ...upload, chunks: 4, stopAfter: 2 });
      expect(sent.status, sent.body).toBe(408);
      expect(json(sent)).toMatchObject({ code: 'request_timeout', error: expect.stringContaining('Idempotency-Key') });
      expect(sent.headers.connection).toBe('close');
      expect(sent.closedAfterMs).toBeDefined();
      expect(await photoCount()).toBe(before);
    },
  );

  it('answers 408 past the deadline to a body that never pauses long but never finishes either', async () => {
    const { path, ...upload } = photoUpload('raw', 'trickle.png', 40_000);
    // 60 chunks 100 ms apart: never idle for a second, but 6 s in all, past the 4 s deadline.
    const sent = await send(path, { ...upload, chunks: 60, gapMs: 100 });
    expect(sent.status).toBe(408);
    expect(json(sent)).toMatchObject({ code: 'request_timeout', error: expect.stringContaining('took longer') });
  });

  it('cuts off a refused request whose body keeps trickling, instead of reading it for as long as it comes', async () => {
    // Unauthenticated: answered 401 at once, without reading the body; the body then drips, unread.
    const sent = await send(photoPath('x.png'), {
      headers: {
        authorization: 'Bearer vsf_aaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
        'content-type': 'image/png',
      },
      body: pngOf(40_000),
      chunks: 60,
      gapMs: 100,
    });
    expect(sent.status).toBe(401);
    // Closed by the unclaimed-body cut-off (1.2 s), long before the 6 s the body would take.
    expect(sent.closedAfterMs).toBeLessThan(4_000);
  });

  it('cuts off a body that goes on arriving past its limit once its 413 is sent', async () => {
    // Chunked, so the size is known only as it arrives: 3 MiB + 1 at once, then a drip that would go on for 8 s.
    const started = performance.now();
    const sent = await new Promise<{ status: number; body: string; closedAfterMs: number }>((resolve) => {
      const req = request(`${origin}${photoPath('huge.png')}`, {
        method: 'POST',
        agent: false,
        headers: { ...auth(), 'content-type': 'image/png', 'transfer-encoding': 'chunked' },
      });
      let status = 0;
      const parts: Buffer[] = [];
      req.on('response', (res) => {
        status = res.statusCode ?? 0;
        res.on('data', (c: Buffer) => parts.push(c));
      });
      // Cut off while writing, the client may see a reset: the close is what this test waits for.
      req.on('error', () => {});
      req.on('socket', (socket) =>
        socket.once('close', () =>
          resolve({ status, body: Buffer.concat(parts).toString(), closedAfterMs: performance.now() - started }),
        ),
      );
      req.write(pngOf(3 * 1024 * 1024 + 1));
      const drip = setInterval(() => {
        if (req.destroyed || performance.now() - started > 8_000) {
          clearInterval(drip);
          if (!req.destroyed) req.end();
        } else req.write(Buffer.alloc(1024));
      }, 100);
    });
    expect(sent.status).toBe(413);
    expect(JSON.parse(sent.body)).toMatchObject({ code: 'payload_too_large' });
    // Closed once the 413 is sent (Node ends a connection whose request was answered before its body
    // ended), not when the client chose to stop at 8 s nor at the 16-minute backstop.
    expect(sent.closedAfterMs).toBeLessThan(5_000);
  });
});

describe('Expect: 100-continue', () => {
  it('answers a refused upload before the client sends its body, and lets an accepted one send it', async () => {
    const headers = { 'content-type': 'image/png', expect: '100-continue' };
    const refused = await send(photoPath('a.png'), {
      headers: {
        ...headers,
        authorization: 'Bearer vsf_aaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
      },
      body: pngOf(10_000),
      waitForContinue: true,
    });
    expect(refused.status).toBe(401);
    expect(refused.interim).toEqual([]);
    const tooLarge = await send(photoPath('big.png'), {
      headers: { ...headers, ...auth() },
      body: pngOf(3 * 1024 * 1024 + 1),
      waitForContinue: true,
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.interim).toEqual([]);
    const accepted = await send(photoPath('ok.png'), {
      headers: { ...headers, ...auth() },
      body: pngOf(10_000),
      waitForContinue: true,
    });
    expect(accepted.status, accepted.body).toBe(201);
    expect(accepted.interim).toEqual([100]);
  });
});

describe('a client that leaves mid-body', () => {
  it('is logged once as an aborted request with no status, not as a server error, and stores nothing', async () => {
    const before = await photoCount();
    const linesBefore = logLines.length;
    await new Promise<void>((resolve) => {
      const req = request(`${origin}${photoPath('gone.png')}`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'image/png', 'content-length': '40000' },
      });
      req.on('error', () => resolve());
      req.write(pngOf(40_000).subarray(0, 10_000));
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 100);
    });
    await expect.poll(() => logLines.slice(linesBefore).some((l) => l.msg === 'request aborted')).toBe(true);
    const lines = logLines.slice(linesBefore);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    expect(lines.find((l) => l.msg === 'request aborted')?.res).toBeUndefined();
    expect(await photoCount()).toBe(before);
  });
});
