import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3BlobStore } from './s3-blob-store.js';

/** Just enough of the S3 REST API (path-style PUT, GET, DELETE of objects) to prove the store's calls. */
function fakeS3(): Promise<{ server: Server; url: string; objects: Map<string, Buffer> }> {
  const objects = new Map<string, Buffer>();
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (req.method === 'PUT') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        objects.set(path, Buffer.concat(chunks));
        res.writeHead(200, { etag: '"x"' }).end();
      });
      return;
    }
    if (req.method === 'GET') {
      const body = objects.get(path);
      if (!body) {
        res.writeHead(404, { 'content-type': 'application/xml' });
        return res.end('<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>missing</Message></Error>');
      }
      return res.writeHead(200, { 'content-length': body.length }).end(body);
    }
    if (req.method === 'DELETE') {
      objects.delete(path);
      return res.writeHead(204).end();
    }
    res.writeHead(405).end();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, objects }),
    ),
  );
}

describe('S3BlobStore against an S3-compatible endpoint', () => {
  let s3: Awaited<ReturnType<typeof fakeS3>>;
  beforeAll(async () => {
    s3 = await fakeS3();
  });
  afterAll(() => s3.server.close());

  it('puts, gets and deletes objects under the bucket and prefix', async () => {
    const store = new S3BlobStore({
      bucket: 'media',
      endpoint: s3.url,
      prefix: 'vsf/',
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    });
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    await store.put('team/photo-1', bytes);
    expect([...s3.objects.keys()]).toEqual(['/media/vsf/team/photo-1']);
    expect(await store.get('team/photo-1')).toEqual(bytes);
    await store.delete('team/photo-1');
    expect(await store.get('team/photo-1')).toBeUndefined();
  });
});
