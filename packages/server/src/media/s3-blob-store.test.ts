import { randomBytes } from 'node:crypto';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type S3FaultProxy, startS3FaultProxy } from '../../test/support/s3-fault-proxy.js';
import { type S3TestServer, startS3TestServer } from '../testing/s3-test-server.js';
import { BlobStoreUnavailableError, S3_MIN_PART_BYTES, S3BlobStore, s3OptionsFromEnv } from './s3-blob-store.js';

const BUCKET = 'vsf-media';
const MiB = 1024 * 1024;

describe('S3BlobStore against s3rver, a real S3-compatible server process', () => {
  let s3: S3TestServer;
  let proxy: S3FaultProxy;
  beforeAll(async () => {
    s3 = await startS3TestServer([BUCKET]);
    proxy = await startS3FaultProxy(s3.endpoint);
  });
  afterAll(async () => {
    await proxy?.close();
    await s3?.close();
  });
  beforeEach(() => {
    proxy.setRule(undefined);
    proxy.requests.length = 0;
  });

  const store = (options: Partial<ConstructorParameters<typeof S3BlobStore>[0]> = {}) =>
    new S3BlobStore({ bucket: BUCKET, endpoint: proxy.endpoint, credentials: s3.credentials, ...options });

  async function objectKeys(prefix: string): Promise<string[]> {
    const client = new S3Client({
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: s3.credentials,
    });
    const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
    client.destroy();
    return (listed.Contents ?? []).map((o) => o.Key as string).sort();
  }

  it('puts, gets and deletes an object with identical bytes, in one PutObject when it is small', async () => {
    const s = store();
    const bytes = new Uint8Array(randomBytes(300_000));
    await s.put('team-a/photo-1', bytes);
    expect(proxy.requests.map((r) => r.method)).toEqual(['PUT']);
    expect(proxy.requests[0]?.url).toBe(`/${BUCKET}/team-a/photo-1?x-id=PutObject`);
    expect(Buffer.from((await s.get('team-a/photo-1')) as Uint8Array).equals(bytes)).toBe(true);
    await s.delete('team-a/photo-1');
    expect(await s.get('team-a/photo-1')).toBeUndefined();
    expect(await objectKeys('team-a/')).toEqual([]);
  });

  it('uploads a 12 MiB asset as a multipart upload of 5 MiB parts and reads back every byte', async () => {
    const s = store();
    const bytes = new Uint8Array(randomBytes(12 * MiB));
    await s.put('team-a/large-asset', bytes);
    const calls = proxy.requests.map((r) => `${r.method} ${r.url.replace(/uploadId=[^&]+/, 'uploadId=*')}`);
    const path = `/${BUCKET}/team-a/large-asset`;
    // Parts go up concurrently, so only the first and last calls have a fixed place.
    expect(calls[0]).toBe(`POST ${path}?uploads=`);
    expect(calls.slice(1, -1).sort()).toEqual(
      [1, 2, 3].map((n) => `PUT ${path}?partNumber=${n}&uploadId=*&x-id=UploadPart`), // 5 + 5 + 2 MiB
    );
    expect(calls.at(-1)).toBe(`POST ${path}?uploadId=*`);
    const read = await s.get('team-a/large-asset');
    expect(read?.byteLength).toBe(12 * MiB);
    expect(Buffer.from(read as Uint8Array).equals(bytes)).toBe(true);
    await s.delete('team-a/large-asset');
  });

  it('answers undefined for a key that was never stored, and deleting it is no error', async () => {
    const s = store();
    expect(await s.get('team-a/never-stored')).toBeUndefined();
    await expect(s.delete('team-a/never-stored')).resolves.toBeUndefined();
  });

  it('keeps every key under its prefix, adding the separator, and prefixes never see each other', async () => {
    const prod = store({ prefix: 'prod' });
    const staging = store({ prefix: 'staging/' });
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    await prod.put('team-b/photo', bytes);
    expect(prod.objectKey('team-b/photo')).toBe('prod/team-b/photo');
    expect(await objectKeys('prod/')).toEqual(['prod/team-b/photo']);
    expect(await objectKeys('team-b/')).toEqual([]);
    expect(await staging.get('team-b/photo')).toBeUndefined();
    expect(await prod.get('team-b/photo')).toEqual(bytes);
    await staging.delete('team-b/photo');
    expect(await prod.get('team-b/photo')).toEqual(bytes);
    await prod.delete('team-b/photo');
    expect(await objectKeys('prod/')).toEqual([]);
  });

  it('retries throttling and server errors with the SDK standard retry, then succeeds', async () => {
    let failures = 0;
    proxy.setRule(() => (failures++ < 2 ? { status: 503, code: 'SlowDown' } : 'pass'));
    const s = store();
    const bytes = new Uint8Array(randomBytes(1000));
    await s.put('team-a/retried', bytes);
    expect(proxy.requests.map((r) => r.method)).toEqual(['PUT', 'PUT', 'PUT']);
    failures = 0;
    expect(await s.get('team-a/retried')).toEqual(bytes);
    await s.delete('team-a/retried');
  });

  it('aborts a multipart upload whose part keeps failing, stores nothing and says so without internals', async () => {
    proxy.setRule((r) => {
      if (/partNumber=2&/.test(r.url)) return { status: 500, code: 'InternalError' };
      // s3rver has no AbortMultipartUpload; answer it as S3 does, so the store's own error is what surfaces.
      if (r.method === 'DELETE' && r.url.includes('uploadId=')) return { status: 204, code: '' };
      return 'pass';
    });
    const s = store({ prefix: 'secret-prefix' });
    const error = await s.put('team-a/failing-asset', new Uint8Array(11 * MiB)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BlobStoreUnavailableError);
    const failure = error as BlobStoreUnavailableError;
    expect(failure.status).toBe(500);
    expect(failure.code).toBe('internal_error');
    expect(failure.message).toBe('Media storage did not accept the file, so nothing was saved; try again in a moment');
    const attemptsOfPart2 = proxy.requests.filter((r) => /partNumber=2&/.test(r.url));
    expect(attemptsOfPart2).toHaveLength(3);
    expect(proxy.requests.some((r) => r.method === 'DELETE' && r.url.includes('uploadId='))).toBe(true);
    expect(await objectKeys('secret-prefix/')).toEqual([]);
  });

  it('maps a missing bucket and wrong credentials to a server error, never to a missing object', async () => {
    const noBucket = store({ bucket: 'no-such-bucket' });
    await expect(noBucket.get('team-a/x')).rejects.toBeInstanceOf(BlobStoreUnavailableError);
    await expect(noBucket.put('team-a/x', new Uint8Array(10))).rejects.toBeInstanceOf(BlobStoreUnavailableError);
    // s3rver checks the access key id (not SigV4 signatures): an unknown one is S3's InvalidAccessKeyId.
    const wrongKey = store({ credentials: { accessKeyId: 'AKIA-UNKNOWN', secretAccessKey: 'not-the-secret' } });
    const error = (await wrongKey.get('team-a/x').catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(BlobStoreUnavailableError);
    expect((error.cause as Error).name).toBe('InvalidAccessKeyId');
    expect(error.message).not.toMatch(/AKIA|not-the-secret|no-such-bucket|AccessKey|127\.0\.0\.1|vsf-media/);
  });

  it('verifies the bucket and credentials up front, with a message that says what to check', async () => {
    await expect(store().verifyBucket()).resolves.toBeUndefined();
    await expect(store({ bucket: 'no-such-bucket' }).verifyBucket()).rejects.toThrow(
      `Cannot use the S3 bucket "no-such-bucket" at ${proxy.endpoint}: it does not exist. Check VSF_S3_BUCKET`,
    );
    const refused = store({ credentials: { accessKeyId: 'AKIA-UNKNOWN', secretAccessKey: 'not-the-secret' } });
    const error = (await refused.verifyBucket().catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/: the credentials were refused\. Check/);
    expect(error.message).not.toContain('not-the-secret');
  });

  it('gives up on a store that stops answering within its socket timeout, retries included', async () => {
    proxy.setRule(() => 'hang');
    const s = store({ socketTimeoutMs: 300, maxAttempts: 2 });
    const started = Date.now();
    await expect(s.get('team-a/x')).rejects.toBeInstanceOf(BlobStoreUnavailableError);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(proxy.requests).toHaveLength(2);
  });
});

describe('s3OptionsFromEnv', () => {
  it('selects S3 only when a bucket is named', () => {
    expect(s3OptionsFromEnv({})).toBeUndefined();
    expect(s3OptionsFromEnv({ VSF_S3_BUCKET: '  ' })).toBeUndefined();
    expect(
      s3OptionsFromEnv({
        VSF_S3_BUCKET: 'media',
        VSF_S3_ENDPOINT: 'http://127.0.0.1:9000',
        VSF_S3_REGION: 'eu-west-1',
        VSF_S3_PREFIX: 'prod/',
        VSF_S3_PART_SIZE_MB: '8',
      }),
    ).toEqual({
      bucket: 'media',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
      prefix: 'prod/',
      partSizeBytes: 8 * MiB,
    });
  });

  it('refuses an endpoint that is not a URL and a part size S3 would refuse', () => {
    expect(() => s3OptionsFromEnv({ VSF_S3_BUCKET: 'm', VSF_S3_ENDPOINT: '127.0.0.1:9000' })).toThrow(
      /VSF_S3_ENDPOINT must be an http\(s\):\/\/ URL/,
    );
    expect(() => s3OptionsFromEnv({ VSF_S3_BUCKET: 'm', VSF_S3_PART_SIZE_MB: '4' })).toThrow(/at least 5/);
    expect(() => s3OptionsFromEnv({ VSF_S3_BUCKET: 'm', VSF_S3_PART_SIZE_MB: 'big' })).toThrow(/at least 5/);
    expect(S3_MIN_PART_BYTES).toBe(5 * MiB);
  });
});
