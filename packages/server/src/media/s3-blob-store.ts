import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { BlobStore } from './blob-store.js';

export interface S3BlobStoreOptions {
  bucket: string;
  /** For S3-compatible stores (MinIO, R2, …); omit for AWS. */
  endpoint?: string | undefined;
  region?: string | undefined;
  /** Prefix for every key, so one bucket can hold several deployments. */
  prefix?: string | undefined;
  /** Credentials default to the AWS SDK's chain (environment, profile, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
}

/** Media bytes in an S3-compatible bucket; path-style addressing so any compatible store works. */
export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;

  constructor(private readonly options: S3BlobStoreOptions) {
    this.client = new S3Client({
      region: options.region ?? 'us-east-1',
      forcePathStyle: true,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
    });
  }

  private key(key: string) {
    return `${this.options.prefix ?? ''}${key}`;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.options.bucket, Key: this.key(key), Body: bytes }));
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      const result = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.key(key) }));
      return result.Body ? await result.Body.transformToByteArray() : undefined;
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.key(key) }));
  }
}

/** `VSF_S3_BUCKET` selects S3; `VSF_S3_ENDPOINT`, `VSF_S3_REGION`, `VSF_S3_PREFIX` tune it. */
export function s3OptionsFromEnv(env: NodeJS.ProcessEnv): S3BlobStoreOptions | undefined {
  const bucket = env.VSF_S3_BUCKET?.trim();
  if (!bucket) return undefined;
  return { bucket, endpoint: env.VSF_S3_ENDPOINT, region: env.VSF_S3_REGION, prefix: env.VSF_S3_PREFIX };
}
