import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { PHOTO_MAX_BYTES } from '@vsf/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type S3TestServer, startS3TestServer } from '../src/testing/s3-test-server.js';
import { type ApiCaller, apiCaller, isApiError } from './support/api-caller.js';
import { type S3FaultProxy, startS3FaultProxy } from './support/s3-fault-proxy.js';
import { type ServerProcess, startServerProcess } from './support/server-process.js';

const adminToken = 's3-media-test-admin-token-0123456789';
const BUCKET = 'vsf-media';
const PREFIX = 'deployment-a/';

/** Image bytes the server accepts (the magic bytes are checked), large enough to be a real photo. */
function image(kind: 'jpeg' | 'png', size: number): Buffer {
  const bytes = randomBytes(size);
  const magic = kind === 'jpeg' ? [0xff, 0xd8, 0xff, 0xe0] : [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  bytes.set(magic, 0);
  return bytes;
}

describe(`vsf-server with media in S3 (s3rver) on ${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`, () => {
  let s3: S3TestServer;
  let proxy: S3FaultProxy;
  let server: ServerProcess;
  let bucket: S3Client;
  let api: ApiCaller;
  let key: string;
  let teamId: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'vsf-s3-media-'));

  beforeAll(async () => {
    s3 = await startS3TestServer([BUCKET]);
    proxy = await startS3FaultProxy(s3.endpoint);
    const database = process.env.TEST_DATABASE_URL
      ? { DATABASE_URL: process.env.TEST_DATABASE_URL }
      : { VSF_DATA_DIR: join(dataDir, 'data') };
    server = await startServerProcess({
      ...database,
      VSF_ADMIN_TOKEN: adminToken,
      VSF_S3_BUCKET: BUCKET,
      VSF_S3_ENDPOINT: proxy.endpoint,
      VSF_S3_PREFIX: PREFIX,
      // Credentials through the AWS SDK's own chain, as the README tells operators.
      AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
    });
    const admin = apiCaller(`${server.url}/admin/v1`, adminToken);
    const team = await admin('POST', '/teams', { body: { name: 'S3 media' } });
    const created = await admin('POST', `/teams/${team.body.data.id}/keys`, {
      body: {
        name: 'media',
        scopes: [
          'read:cars',
          'write:cars',
          'read:parking',
          'write:parking',
          'read:marketing-assets',
          'write:marketing-assets',
        ],
      },
    });
    key = created.body.data.key;
    teamId = team.body.data.id;
    api = apiCaller(`${server.url}/api/v1`, key);
    bucket = new S3Client({
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: s3.credentials,
    });
  });
  afterAll(async () => {
    await server?.stop();
    bucket?.destroy();
    await proxy?.close();
    await s3?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  beforeEach(() => proxy.setRule(undefined));

  const media = (url: string) => fetch(`${server.url}${url}`, { headers: { authorization: `Bearer ${key}` } });
  const objectKeys = async () =>
    ((await bucket.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? []).map((o) => o.Key as string);

  async function carSession(): Promise<{ carId: string; sessionId: string }> {
    const car = await api('POST', '/cars', { body: { year: 1967, make: 'Jaguar', model: 'E-Type' } });
    const zone = await api('POST', '/parking-zones', { body: { name: `Hall ${randomBytes(3).toString('hex')}` } });
    const event = await api('POST', `/cars/${car.body.data.id}/events`, {
      body: { activityType: 'drop_off', parkingZoneId: zone.body.data.id },
    });
    expect(event.status).toBe(201);
    return { carId: car.body.data.id, sessionId: event.body.data.sessionId };
  }

  it('refuses to start with a bucket that does not exist, naming what to check', async () => {
    const started = startServerProcess({
      VSF_DATA_DIR: 'memory://',
      VSF_S3_BUCKET: 'no-such-bucket',
      VSF_S3_ENDPOINT: s3.endpoint,
      AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
    });
    const error = (await started.catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/vsf-server exited with 1/);
    expect(error.message).toContain(
      `vsf-server: Cannot use the S3 bucket "no-such-bucket" at ${s3.endpoint}: it does not exist. Check VSF_S3_BUCKET`,
    );
    expect(error.message).not.toContain(s3.credentials.secretAccessKey);
  });

  it('stores a car photo and a marketing asset in the bucket and serves back identical bytes', async () => {
    const { carId, sessionId } = await carSession();
    const photoBytes = image('jpeg', 2_500_000);
    const photo = await api('POST', `/cars/${carId}/photos`, {
      body: { sessionId, filename: 'front.jpg', contentType: 'image/jpeg', base64: photoBytes.toString('base64') },
    });
    expect(photo.status).toBe(201);
    expect(photo.body.data.sizeBytes).toBe(photoBytes.length);

    const assetBytes = image('png', PHOTO_MAX_BYTES);
    const asset = await api('POST', '/marketing/assets', {
      body: { filename: 'poster.png', contentType: 'image/png', base64: assetBytes.toString('base64') },
    });
    expect(asset.status).toBe(201);

    for (const [record, bytes, type] of [
      [photo.body.data, photoBytes, 'image/jpeg'],
      [asset.body.data, assetBytes, 'image/png'],
    ] as const) {
      const served = await media(record.url);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe(type);
      expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    }
    // The bytes are in the bucket under the prefix, not on the server's disk or in its memory.
    expect(await objectKeys()).toEqual(
      expect.arrayContaining([`${PREFIX}${teamId}/${photo.body.data.id}`, `${PREFIX}${teamId}/${asset.body.data.id}`]),
    );

    expect((await api('DELETE', `/marketing/assets/${asset.body.data.id}`)).status).toBe(200);
    expect(await objectKeys()).not.toContain(`${PREFIX}${teamId}/${asset.body.data.id}`);
    expect((await media(asset.body.data.url)).status).toBe(404);
  });

  it('deletes an asset even when S3 fails to drop its bytes (the object is left over, harmlessly)', async () => {
    const asset = await api('POST', '/marketing/assets', {
      body: { filename: 'old.png', contentType: 'image/png', base64: image('png', 1000).toString('base64') },
    });
    expect(asset.status).toBe(201);
    proxy.setRule((r) => (r.method === 'DELETE' ? { status: 503, code: 'SlowDown' } : 'pass'));
    const deleted = await api('DELETE', `/marketing/assets/${asset.body.data.id}`);
    expect(deleted.status).toBe(200);
    expect((await api('GET', `/marketing/assets/${asset.body.data.id}`)).status).toBe(404);
    expect(await objectKeys()).toContain(`${PREFIX}${teamId}/${asset.body.data.id}`);
  });

  it('answers 404 for media whose object is gone from the bucket', async () => {
    const { carId, sessionId } = await carSession();
    const photo = await api('POST', `/cars/${carId}/photos`, {
      body: { sessionId, filename: 'f.png', contentType: 'image/png', base64: image('png', 1000).toString('base64') },
    });
    const objectKey = `${PREFIX}${teamId}/${photo.body.data.id}`;
    expect(await objectKeys()).toContain(objectKey);
    await bucket.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: objectKey }));
    const served = await media(photo.body.data.url);
    expect(served.status).toBe(404);
    expect(await served.json()).toEqual({ error: 'Media not found', code: 'not_found', details: null });
  });

  it('when S3 keeps failing, answers a clear 500 without internals and records nothing', async () => {
    const { carId, sessionId } = await carSession();
    const stored = await api('POST', `/cars/${carId}/photos`, {
      body: { sessionId, filename: 'a.png', contentType: 'image/png', base64: image('png', 2000).toString('base64') },
    });
    expect(stored.status).toBe(201);

    proxy.setRule(() => ({ status: 500, code: 'InternalError' }));
    const failed = await api('POST', `/cars/${carId}/photos`, {
      body: { sessionId, filename: 'b.png', contentType: 'image/png', base64: image('png', 2000).toString('base64') },
    });
    expect(failed.status).toBe(500);
    expect(isApiError(failed.body)).toBe(true);
    expect(failed.body).toEqual({
      error: 'Media storage did not accept the file, so nothing was saved; try again in a moment',
      code: 'internal_error',
      details: null,
    });
    const read = await media(stored.body.data.url);
    expect(read.status).toBe(500);
    const readBody = await read.text();
    expect(JSON.parse(readBody)).toMatchObject({
      code: 'internal_error',
      error: expect.stringMatching(/^Media storage/),
    });
    for (const secret of [BUCKET, PREFIX, s3.credentials.accessKeyId, proxy.endpoint, 'InternalError']) {
      expect(JSON.stringify(failed.body)).not.toContain(secret);
      expect(readBody).not.toContain(secret);
    }

    // What the client is spared, the operator's log has: the store's own error as the cause.
    expect(server.output()).toMatch(
      /Media storage did not accept the file[^\n]*InternalError|InternalError[^\n]*Media storage did not accept/,
    );

    proxy.setRule(undefined);
    const gallery = await api('GET', `/cars/${carId}/photos`);
    expect(gallery.body.data.map((p: { filename: string }) => p.filename)).toEqual(['a.png']);
    expect((await media(stored.body.data.url)).status).toBe(200);
  });
});
