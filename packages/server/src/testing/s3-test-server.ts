import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface S3TestServer {
  /** `http://127.0.0.1:<port>`, for `VSF_S3_ENDPOINT` or `S3BlobStoreOptions.endpoint`. */
  endpoint: string;
  /** The buckets created at start. */
  buckets: readonly string[];
  /** The credentials s3rver checks signatures against. */
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** The server's storage directory (objects are files under `<dir>/<bucket>/`). */
  dir: string;
  close(): Promise<void>;
}

/**
 * Starts s3rver, an S3-compatible server (signatures, multipart uploads, 404 `NoSuchKey`), as a separate
 * process on a free loopback port with a throwaway directory. s3rver is a devDependency of @vsf/server.
 */
export async function startS3TestServer(buckets: readonly string[] = ['vsf-media']): Promise<S3TestServer> {
  const bin = createRequire(import.meta.url).resolve('s3rver/bin/s3rver.js');
  const dir = mkdtempSync(join(tmpdir(), 'vsf-s3rver-'));
  const args = [bin, '-d', dir, '-a', '127.0.0.1', '-p', '0', '--silent'];
  for (const bucket of buckets) args.push('--configure-bucket', bucket);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /S3rver listening on [^:\s]+:(\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code} before listening:\n${output}`)));
  });
  child.removeAllListeners('exit');
  return {
    endpoint: `http://127.0.0.1:${port}`,
    buckets,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    dir,
    close: () => stopProcess(child).then(() => rmSync(dir, { recursive: true, force: true })),
  };
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
