import { ALL_SCOPES } from '@vsf/contract';
import { VsfClient } from '@vsf/sdk';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `client.cars.photos.upload` uses the `binary-upload` extension only while the server announces it, and
// speaks the spec's base64 JSON to a server that does not (here: the real server with the header removed).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

interface Sent {
  contentType: string;
  bytes: number;
  status: number;
}

let server: TestServer;
let key: string;

/** A client whose every request and answer is recorded; `serve` may rewrite answers (another server's). */
function recordingClient(serve: (request: Request, sent: Sent[]) => Promise<Response> = (r) => fetch(r)) {
  const sent: Sent[] = [];
  const client = new VsfClient({
    apiKey: key,
    baseUrl: server.baseUrl,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const bytes = (await request.clone().arrayBuffer()).byteLength;
      const response = await serve(request, sent);
      sent.push({ contentType: request.headers.get('content-type') ?? '', bytes, status: response.status });
      return response;
    },
  });
  return { client, sent };
}

/** The same answer without the extensions header: what a server implementing only the spec sends. */
async function withoutExtensions(response: Response): Promise<Response> {
  const headers = new Headers(response.headers);
  headers.delete('vsf-extensions');
  return new Response(await response.arrayBuffer(), { status: response.status, headers });
}

async function newSession(client: VsfClient) {
  const zone = await client.parking.zones.create({ name: `Z-${Math.random().toString(36).slice(2, 8)}` });
  const car = await client.cars.create({ year: 2020, make: 'Mazda', model: 'MX-5' });
  const event = await client.cars.events.create(car.id, { activityType: 'drop_off', parkingZoneId: zone.id });
  return { carId: car.id, sessionId: event.sessionId };
}

beforeAll(async () => {
  server = await startTestServer();
  ({ key } = await server.createTeamWithKey(ALL_SCOPES));
});
afterAll(() => server?.close());

describe('photo uploads and the binary-upload extension', () => {
  it('sends the bytes raw once the server announced the extension: a third fewer bytes, the same photo', async () => {
    const { client, sent } = recordingClient();
    const { carId, sessionId } = await newSession(client);
    expect(client.serverExtensions.has('binary-upload')).toBe(true);
    const photo = await client.cars.photos.upload(carId, { sessionId, file: PNG, filename: 'front.png' });
    const upload = sent.at(-1) as Sent;
    expect(upload).toMatchObject({ contentType: 'image/png', bytes: PNG.length, status: 201 });
    expect(photo).toMatchObject({ carId, sessionId, filename: 'front.png', contentType: 'image/png' });
    const media = await client.media.download(photo.id);
    expect(Buffer.from(await media.arrayBuffer())).toEqual(PNG);
  });

  it('sends base64 JSON to a server that does not announce it, and before any response', async () => {
    const { client, sent } = recordingClient(async (request) => withoutExtensions(await fetch(request)));
    const { carId, sessionId } = await newSession(client);
    expect(client.serverExtensions.size).toBe(0);
    await client.cars.photos.upload(carId, { sessionId, file: PNG, filename: 'front.png' });
    expect(sent.at(-1)).toMatchObject({ contentType: 'application/json', status: 201 });
    expect((sent.at(-1) as Sent).bytes).toBeGreaterThan(Math.ceil(PNG.length / 3) * 4);

    const fresh = recordingClient();
    await fresh.client.cars.photos.upload(carId, { sessionId, file: PNG, filename: 'first.png' });
    expect(fresh.sent.map((s) => s.contentType)).toEqual(['application/json']);
  });

  it('falls back to JSON, once, when a server that announced it is replaced by one that does not', async () => {
    let replaced = false;
    const { client, sent } = recordingClient(async (request) => {
      if (!replaced) return fetch(request);
      // The spec-only server refuses an image body as any JSON endpoint refuses a non-JSON one.
      if (request.headers.get('content-type')?.startsWith('image/'))
        return Response.json(
          { code: 'validation_error', message: 'Validation failed', details: [{ path: '', message: 'Expected JSON' }] },
          { status: 400 },
        );
      return withoutExtensions(await fetch(request));
    });
    const { carId, sessionId } = await newSession(client);
    replaced = true;
    const photo = await client.cars.photos.upload(
      carId,
      { sessionId, file: PNG, filename: 'front.png' },
      { idempotencyKey: 'queue-photo-1' },
    );
    expect(sent.slice(-2).map((s) => [s.contentType, s.status])).toEqual([
      ['image/png', 400],
      ['application/json', 201],
    ]);
    // A later retry of the same queued photo (same key) replays the upload instead of storing it twice.
    const again = await client.cars.photos.upload(
      carId,
      { sessionId, file: PNG, filename: 'front.png' },
      { idempotencyKey: 'queue-photo-1' },
    );
    expect(again.id).toBe(photo.id);
    const gallery = await client.cars.photos.list(carId, { sessionId });
    expect(gallery.data.map((p) => p.id)).toEqual([photo.id]);
  });
});
