import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotAnImageError, PhotoTooLargeError } from '../core/errors.js';
import { VsfClient } from '../generated/vsf-client.js';

const BASE = 'http://vsf.test/api/v1';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
const client = new VsfClient({ apiKey: 'vsf_abcdefghijkl.x', baseUrl: BASE, logLevel: 'off', maxRetries: 0 });
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);

describe('cars.photos.upload', () => {
  it('sends one JSON request with base64 bytes and the inferred type', async () => {
    const bodies: unknown[] = [];
    const types: (string | null)[] = [];
    server.use(
      http.post(`${BASE}/cars/:carId/photos`, async ({ request }) => {
        types.push(request.headers.get('content-type'));
        bodies.push(await request.json());
        return HttpResponse.json({ data: { id: 'p1' } }, { status: 201 });
      }),
    );
    await client.cars.photos.upload('car1', { sessionId: 's1', file: JPEG, filename: 'front.jpg' });
    await client.cars.photos.upload('car1', { sessionId: 's1', file: new Blob([JPEG]), filename: 'blob.bin' });
    await client.cars.photos.upload('car1', {
      sessionId: 's1',
      file: Readable.from([JPEG.slice(0, 3), JPEG.slice(3)]),
      filename: 'stream.jpg',
    });
    // Names are JSON-escaped even though the base64 is spliced in as it is.
    await client.cars.photos.upload('car1', { sessionId: 's1', file: JPEG, filename: 'Ada\'s "front"\\ü\n.jpg' });
    expect(types).toEqual(Array(4).fill('application/json'));
    const base64 = Buffer.from(JPEG).toString('base64');
    const filenames = ['front.jpg', 'blob.bin', 'stream.jpg', 'Ada\'s "front"\\ü\n.jpg'];
    expect(bodies).toEqual(
      filenames.map((filename) => ({ sessionId: 's1', filename, contentType: 'image/jpeg', base64 })),
    );
  });

  it('refuses photos over 3 MiB and non-images before any request', async () => {
    const big = new Uint8Array(3 * 1024 * 1024 + 1);
    big.set(JPEG);
    const tooLarge = client.cars.photos.upload('car1', { sessionId: 's', file: big, filename: 'big.jpg' });
    await expect(tooLarge).rejects.toThrow(/3 MiB/);
    await expect(tooLarge).rejects.toMatchObject({ name: 'PhotoTooLargeError', code: 'photo_too_large' });
    await expect(tooLarge).rejects.toBeInstanceOf(PhotoTooLargeError);
    const notImage = client.cars.photos.upload('car1', {
      sessionId: 's',
      file: new Uint8Array([1, 2]),
      filename: 'notes.txt',
    });
    await expect(notImage).rejects.toBeInstanceOf(NotAnImageError);
    await expect(notImage).rejects.toMatchObject({ code: 'not_an_image' });
  });

  it('sniffs the bytes: a text file named .jpg, or bytes contradicting the declared type, never leave the client', async () => {
    let requests = 0;
    server.use(
      http.post(`${BASE}/cars/:carId/photos`, () => {
        requests += 1;
        return HttpResponse.json({ data: { id: 'p1' } }, { status: 201 });
      }),
    );
    const text = new TextEncoder().encode('this is not a photo');
    await expect(
      client.cars.photos.upload('car1', { sessionId: 's', file: text, filename: 'fake.jpg' }),
    ).rejects.toThrow('fake.jpg is not an image: its bytes are not a JPEG, PNG, GIF, WebP, HEIC or AVIF');
    await expect(
      client.cars.photos.upload('car1', {
        sessionId: 's',
        file: text,
        filename: 'fake.jpg',
        contentType: 'image/jpeg',
      }),
    ).rejects.toThrow(/not an image/);
    const mismatch = client.cars.photos.upload('car1', {
      sessionId: 's',
      file: JPEG,
      filename: 'a.png',
      contentType: 'image/png',
    });
    await expect(mismatch).rejects.toThrow('a.png is declared image/png but its bytes are image/jpeg');
    await expect(mismatch).rejects.toMatchObject({ name: 'NotAnImageError', code: 'image_type_mismatch' });
    expect(requests).toBe(0);
    // A JPEG named .png is sent as what its bytes are.
    await client.cars.photos.upload('car1', { sessionId: 's', file: JPEG, filename: 'misnamed.png' });
    expect(requests).toBe(1);
  });

  it('takes a file path once @vsf/sdk/node is imported, naming the photo after the file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vsf-photo-'));
    const path = join(dir, 'front-left.jpg');
    await writeFile(path, JPEG);
    const noNode = client.cars.photos.upload('car1', { sessionId: 's1', file: path });
    await expect(noNode).rejects.toThrow(/import '@vsf\/sdk\/node'/);
    await expect(noNode).rejects.toMatchObject({ code: 'file_path_unsupported' });
    await import('../node.js');
    let body: unknown;
    server.use(
      http.post(`${BASE}/cars/:carId/photos`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ data: { id: 'p3' } }, { status: 201 });
      }),
    );
    await client.cars.photos.upload('car1', { sessionId: 's1', file: path });
    expect(body).toEqual({
      sessionId: 's1',
      filename: 'front-left.jpg',
      contentType: 'image/jpeg',
      base64: Buffer.from(JPEG).toString('base64'),
    });
  });

  it('passes a sourceUrl through for the server to fetch', async () => {
    let body: unknown;
    server.use(
      http.post(`${BASE}/cars/:carId/photos`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ data: { id: 'p2' } }, { status: 201 });
      }),
    );
    await client.cars.photos.upload('car1', { sessionId: 's1', sourceUrl: 'https://img.example/cars/rear.png' });
    expect(body).toEqual({
      sessionId: 's1',
      filename: 'rear.png',
      contentType: 'image/png',
      sourceUrl: 'https://img.example/cars/rear.png',
    });
  });
});
