import { randomUUID } from 'node:crypto';
import { ALL_SCOPES, PHOTO_MAX_BYTES, SERVER_EXTENSIONS } from '@vsf/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../src/testing/start-test-server.js';
import { type ApiCaller, apiCaller, isApiError } from './support/api-caller.js';
import { TINY_PNG } from './support/endpoint-fixtures.js';
import { expectPhotoStored, photoCount, PNG as png, usePhotoSession } from './support/photo-session.js';

// The announced `binary-upload` extension: a photo or asset sent as its bytes, the other fields in the query
// (its multipart/form-data form: multipart-upload.test.ts).
const session = usePhotoSession();
let server: TestServer;
let key: string;
let api: ApiCaller;
let carId: string;
let sessionId: string;

/** A raw request, as a client of the extension sends it. */
async function raw(
  path: string,
  body: Uint8Array | string,
  query: Record<string, string>,
  headers: Record<string, string> = { 'content-type': 'image/png' },
  withKey = key,
) {
  const url = new URL(`${server.baseUrl}${path}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${withKey}`, ...headers }, body });
  // biome-ignore lint/suspicious/noExplicitAny: each assertion states the shape it expects
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

const countPhotos = () => photoCount(session);

beforeAll(() => {
  ({ server, key, api, carId, sessionId } = session);
});

describe('binary-upload', () => {
  it('is announced on every API response: successes, errors and unknown routes', async () => {
    const responses = [
      await api('GET', '/cars'),
      await api('GET', `/cars/${randomUUID()}`),
      await apiCaller(server.baseUrl)('GET', '/cars'),
      await api('GET', '/no-such-route'),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 404, 401, 404]);
    // binary-upload among the server's other extensions (events, webhooks).
    for (const r of responses) expect(r.headers.get('vsf-extensions')).toBe(SERVER_EXTENSIONS.join(', '));
    expect(SERVER_EXTENSIONS).toContain('binary-upload');
  });

  it('stores a photo sent as its bytes, the same as one sent as base64, and serves the bytes back', async () => {
    const res = await raw(`/cars/${carId}/photos`, png, { sessionId, filename: 'front.png' });
    await expectPhotoStored(session, res, png);
    expect(res.body.data).toMatchObject({ carId, sessionId, filename: 'front.png', contentType: 'image/png' });
  });

  it('stores a marketing asset sent as its bytes, with name and folder from the query', async () => {
    const folder = (await api('POST', '/marketing/asset-folders', { body: { name: 'Spring' } })).body.data;
    const res = await raw('/marketing/assets', png, { filename: 'banner.png', name: 'Banner', folderId: folder.id });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'Banner', folderId: folder.id, filename: 'banner.png' });
  });

  it.each([
    [
      'bytes that are not the declared type',
      png,
      { sessionId: 'SESSION', filename: 'a.jpg' },
      { 'content-type': 'image/jpeg' },
      400,
      'contentType',
    ],
    [
      'bytes that are no image',
      Buffer.from('%PDF-1.7'),
      { sessionId: 'SESSION', filename: 'a.png' },
      undefined,
      400,
      'contentType',
    ],
    ['no sessionId', png, { filename: 'a.png' }, undefined, 400, 'sessionId'],
    [
      'a query field the JSON body does not have',
      png,
      { sessionId: 'SESSION', filename: 'a.png', base64: 'x' },
      undefined,
      400,
      '',
    ],
    [
      'a session of no event of the car',
      png,
      { sessionId: randomUUID(), filename: 'a.png' },
      undefined,
      400,
      'sessionId',
    ],
    [
      'a compressed body',
      png,
      { sessionId: 'SESSION', filename: 'a.png' },
      { 'content-type': 'image/png', 'content-encoding': 'gzip' },
      415,
      undefined,
    ],
  ])('refuses %s with an ApiError and stores nothing', async (_case, body, query, headers, status, path) => {
    const before = await countPhotos();
    // The session exists only once beforeAll ran: the table names it by a placeholder.
    const fields = Object.fromEntries(Object.entries(query).map(([k, v]) => [k, v === 'SESSION' ? sessionId : v]));
    const res = await raw(`/cars/${carId}/photos`, body, fields as Record<string, string>, headers);
    expect(res.status).toBe(status);
    expect(isApiError(res.body)).toBe(true);
    if (path !== undefined) expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(await countPhotos()).toBe(before);
  });

  it('refuses an image over 3 MiB with 413, by its Content-Length or as it streams, and stores nothing', async () => {
    const before = await countPhotos();
    const big = new Uint8Array(PHOTO_MAX_BYTES + 1);
    big.set(png);
    const declared = await raw(`/cars/${carId}/photos`, big, { sessionId, filename: 'big.png' });
    expect(declared.status).toBe(413);
    // Chunked: no Content-Length to refuse by, so the limit applies while reading.
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < big.length; i += 64 * 1024) controller.enqueue(big.subarray(i, i + 64 * 1024));
        controller.close();
      },
    });
    const url = `${server.baseUrl}/cars/${carId}/photos?sessionId=${sessionId}&filename=big.png`;
    const chunked = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'image/png' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(isApiError(await chunked.json())).toBe(true);
    expect(await countPhotos()).toBe(before);
  });

  it('replays a retry with the same Idempotency-Key and bytes, and refuses the key with other bytes', async () => {
    const idem = { 'content-type': 'image/png', 'idempotency-key': randomUUID() };
    const query = { sessionId, filename: 'retry.png' };
    const first = await raw(`/cars/${carId}/photos`, png, query, idem);
    const again = await raw(`/cars/${carId}/photos`, png, query, idem);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    const other = Buffer.concat([png, Buffer.from([0])]);
    expect((await raw(`/cars/${carId}/photos`, other, query, idem)).status).toBe(409);
  });

  it('replays a retry that switches between base64 JSON and raw bytes under the same Idempotency-Key', async () => {
    const idempotencyKey = randomUUID();
    const json = await api('POST', `/cars/${carId}/photos`, {
      body: { sessionId, filename: 'switch.png', contentType: 'image/png', base64: TINY_PNG },
      headers: { 'idempotency-key': idempotencyKey },
    });
    const bytes = await raw(
      `/cars/${carId}/photos`,
      png,
      { sessionId, filename: 'switch.png' },
      {
        'content-type': 'image/png',
        'idempotency-key': idempotencyKey,
      },
    );
    expect([json.status, bytes.status]).toEqual([201, 201]);
    expect(bytes.headers.get('idempotent-replayed')).toBe('true');
    expect(bytes.body.data.id).toBe(json.body.data.id);
  });

  it('is refused before the body is read to a key without write:cars, and to another team’s car', async () => {
    const readOnly = (await server.createKey((await api('GET', '/auth/key')).body.data.teamId, ['read:cars'])).key;
    const forbidden = await raw(`/cars/${carId}/photos`, png, { sessionId, filename: 'a.png' }, undefined, readOnly);
    expect(forbidden.status).toBe(403);
    const other = await server.createTeamWithKey(ALL_SCOPES);
    const foreign = await raw(`/cars/${carId}/photos`, png, { sessionId, filename: 'a.png' }, undefined, other.key);
    expect(foreign.status).toBe(404);
  });

  it('leaves endpoints without the extension speaking JSON only', async () => {
    const res = await raw('/cars', png, {});
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({
      code: 'unsupported_media_type',
      error: 'Send the body as JSON (Content-Type: application/json); got "image/png"',
    });
  });

  it('answers a body that is neither JSON, an image nor a form with 415 naming all three, before looking at the query', async () => {
    for (const type of ['application/octet-stream', 'application/x-www-form-urlencoded', 'text/plain']) {
      const res = await raw(`/cars/${carId}/photos`, png, { sessionId, filename: 'a.png' }, { 'content-type': type });
      expect(res.status, JSON.stringify(res.body)).toBe(415);
      expect(res.body.error).toContain('or an image (Content-Type: image/*, or multipart/form-data');
    }
  });
});
