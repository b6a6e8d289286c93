import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../src/testing/index.js';
import { isApiError } from './support/api-caller.js';
import { usePhotoSession } from './support/photo-session.js';

// Requests Node's HTTP parser refuses, sent byte for byte: each is answered with an ApiError instead of
// Node's bare `400 Bad Request`, and a response owed to an earlier request on the connection comes first.
const session = usePhotoSession();
let server: TestServer;
let key: string;

beforeAll(() => {
  ({ server, key } = session);
});

/** Writes `bytes` on a new connection and reads until the server closes it. */
function exchange(bytes: string): Promise<string> {
  const { hostname, port } = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const parts: Buffer[] = [];
    socket.on('data', (c: Buffer) => parts.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(parts).toString()));
    socket.setTimeout(10_000, () => socket.destroy(new Error('no close within 10 s')));
    socket.write(bytes);
  });
}

/** The responses in a raw exchange: status and parsed JSON body of each. */
function responses(raw: string): { status: number; body: unknown }[] {
  const found: { status: number; body: unknown }[] = [];
  let rest = raw;
  while (rest.startsWith('HTTP/1.1 ')) {
    const headEnd = rest.indexOf('\r\n\r\n');
    const head = rest.slice(0, headEnd);
    const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
    const body = Buffer.from(rest.slice(headEnd + 4))
      .subarray(0, length)
      .toString();
    found.push({ status: Number(head.slice(9, 12)), body: body ? JSON.parse(body) : undefined });
    rest = Buffer.from(rest.slice(headEnd + 4))
      .subarray(length)
      .toString();
  }
  return found;
}

describe('requests Node cannot parse', () => {
  it.each([
    ['a request line that is no HTTP', 'HELLO THERE\r\n\r\n', 400],
    ['a header without a colon', 'GET /api/v1/cars HTTP/1.1\r\nHost: x\r\nnot a header\r\n\r\n', 400],
    ['a NUL in a header value', 'GET /api/v1/cars HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n', 400],
    [
      'two Content-Lengths that disagree',
      'POST /api/v1/cars HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
      400,
    ],
    ['an HTTP/1.1 request without Host', 'GET /api/v1/cars HTTP/1.1\r\n\r\n', 400],
    // Node keeps the first Host and drops the second: a proxy reading the last would route by another name.
    ['two Host headers', 'GET /api/v1/cars HTTP/1.1\r\nHost: x\r\nhost: y\r\n\r\n', 400],
    ['two Host headers on HTTP/1.0', 'GET /api/v1/cars HTTP/1.0\r\nHost: x\r\nHost: x\r\n\r\n', 400],
    ['a Host that is not a host and port', 'GET /api/v1/cars HTTP/1.1\r\nHost: x@evil.example\r\n\r\n', 400],
    ['an Expect other than 100-continue', 'GET /api/v1/cars HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n\r\n', 417],
    ['CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 405],
    ['headers over 16 KiB', `GET /api/v1/cars HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
  ])('answers %s with an ApiError and closes', async (_case, bytes, status) => {
    const [answer, ...more] = responses(await exchange(bytes));
    expect(more).toEqual([]);
    expect(answer?.status).toBe(status);
    expect(isApiError(answer?.body), JSON.stringify(answer?.body)).toBe(true);
  });

  it.each([
    ['a JSON create', '/api/v1/cars', 'application/json'],
    ['a photo', 'PHOTO', 'image/png'],
  ])('answers %s whose chunked body has a malformed chunk at once, with an ApiError', async (_case, route, type) => {
    const path =
      route === 'PHOTO' ? `/api/v1/cars/${session.carId}/photos?sessionId=${session.sessionId}&filename=a.png` : route;
    const started = performance.now();
    const raw = await exchange(
      `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: ${type}\r\n` +
        'Transfer-Encoding: chunked\r\n\r\n2\r\n{"\r\nZZ\r\nnot a chunk\r\n',
    );
    const [answer, ...more] = responses(raw);
    expect(answer?.status, raw.slice(0, 300)).toBe(400);
    expect(isApiError(answer?.body)).toBe(true);
    expect(more).toEqual([]);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('sends the answer owed to the request before the bad bytes first (a body longer than its Content-Length)', async () => {
    const body = JSON.stringify({ year: 2003, make: 'BMW', model: 'Z4' });
    const raw = await exchange(
      `POST /api/v1/cars HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\n\r\n${body}TRAILING GARBAGE\r\n\r\n`,
    );
    const [created, refused, ...more] = responses(raw);
    expect(created?.status, raw.slice(0, 300)).toBe(201);
    expect(refused?.status).toBe(400);
    expect(isApiError(refused?.body)).toBe(true);
    expect(more).toEqual([]);
  });
});
