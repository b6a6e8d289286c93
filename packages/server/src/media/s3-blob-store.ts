import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { ApiHttpError } from '../errors/api-http-error.js';
import type { BlobStore } from './blob-store.js';

/** S3's smallest part; objects up to this size go up in one PutObject. */
export const S3_MIN_PART_BYTES = 5 * 1024 * 1024;

export interface S3BlobStoreOptions {
  bucket: string;
  /** For S3-compatible stores (MinIO, R2, …); omit for AWS. */
  endpoint?: string | undefined;
  region?: string | undefined;
  /** Prefix for every key, so one bucket can hold several deployments; a missing trailing `/` is added. */
  prefix?: string | undefined;
  /** Credentials default to the AWS SDK's chain (environment, profile, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** Objects larger than this go up as a multipart upload in parts of this size (at least 5 MiB). */
  partSizeBytes?: number | undefined;
  /** Parts of one object uploaded at once. */
  partConcurrency?: number | undefined;
  /** Tries per S3 call, the first included, with the SDK's standard backoff between them. */
  maxAttempts?: number | undefined;
  /** How long to wait for a connection, and for a silent socket, before the SDK gives up on a try. */
  connectTimeoutMs?: number | undefined;
  socketTimeoutMs?: number | undefined;
}

/**
 * What API clients see when the bucket fails after the SDK's retries: a 500 that says what happened and what
 * to do, and nothing of the bucket, endpoint or SDK message (those go to the log through `cause`).
 */
export class BlobStoreUnavailableError extends ApiHttpError {
  constructor(operation: 'put' | 'get' | 'delete', cause: unknown) {
    const what = {
      put: 'Media storage did not accept the file, so nothing was saved',
      get: 'Media storage did not return the file',
      delete: 'Media storage did not delete the file',
    }[operation];
    super(500, 'internal_error', `${what}; try again in a moment`);
    this.name = 'BlobStoreUnavailableError';
    this.cause = cause;
  }
}

/** The object is not there (its key's contract: `undefined`); a missing bucket is a misconfiguration, not this. */
function isMissingObject(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return error.name === 'NoSuchKey' || (error.$metadata.httpStatusCode === 404 && error.name !== 'NoSuchBucket');
}

/**
 * Media bytes in an S3-compatible bucket. Large objects go up as multipart uploads (aborted on failure, so
 * no orphaned parts are billed); every call retries transient failures with the SDK's standard mode.
 */
export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  private readonly prefix: string;
  private readonly partSize: number;

  constructor(private readonly options: S3BlobStoreOptions) {
    this.client = new S3Client({
      region: options.region ?? 'us-east-1',
      // Compatible stores are addressed by path; AWS itself by virtual host, as it recommends.
      forcePathStyle: Boolean(options.endpoint),
      retryMode: 'standard',
      maxAttempts: options.maxAttempts ?? 3,
      // Without these a hung store holds the API request until the client gives up.
      requestHandler: {
        connectionTimeout: options.connectTimeoutMs ?? 5_000,
        socketTimeout: options.socketTimeoutMs ?? 15_000,
      },
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
    });
    const prefix = options.prefix?.trim() ?? '';
    this.prefix = prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
    this.partSize = Math.max(S3_MIN_PART_BYTES, options.partSizeBytes ?? S3_MIN_PART_BYTES);
  }

  /**
   * Proves the bucket exists and the credentials may use it, so a wrong bucket, endpoint, region or key
   * stops the server's start instead of failing the first upload. The message is for the operator.
   */
  async verifyBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.options.bucket }));
    } catch (error) {
      const where = this.options.endpoint ? ` at ${this.options.endpoint}` : '';
      const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
      const reason =
        status === 404
          ? 'it does not exist'
          : status === 403 || status === 401
            ? 'the credentials were refused'
            : `${(error as Error).name}: ${(error as Error).message}`;
      throw new Error(
        `Cannot use the S3 bucket "${this.options.bucket}"${where}: ${reason}. Check VSF_S3_BUCKET, VSF_S3_ENDPOINT, VSF_S3_REGION and the AWS credentials (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, profile or role).`,
        { cause: error },
      );
    }
  }

  /** The object key a blob key is stored under. */
  objectKey(key: string) {
    return `${this.prefix}${key}`;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.options.bucket, Key: this.objectKey(key), Body: bytes, ContentLength: bytes.byteLength },
      partSize: this.partSize,
      queueSize: this.options.partConcurrency ?? 4,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      throw new BlobStoreUnavailableError('put', error);
    }
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      const result = await this.client.send(
        new GetObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }),
      );
      if (!result.Body) return undefined;
      const bytes = await result.Body.transformToByteArray();
      // A connection cut mid-body must not be served as a whole (shorter) image.
      if (result.ContentLength !== undefined && bytes.byteLength !== result.ContentLength) {
        throw new Error(`S3 returned ${bytes.byteLength} of ${result.ContentLength} bytes`);
      }
      return bytes;
    } catch (error) {
      if (isMissingObject(error)) return undefined;
      throw new BlobStoreUnavailableError('get', error);
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }));
    } catch (error) {
      throw new BlobStoreUnavailableError('delete', error);
    }
  }
}

/** `VSF_S3_BUCKET` selects S3; `VSF_S3_ENDPOINT`, `VSF_S3_REGION`, `VSF_S3_PREFIX`, `VSF_S3_PART_SIZE_MB` tune it. */
export function s3OptionsFromEnv(env: NodeJS.ProcessEnv): S3BlobStoreOptions | undefined {
  const bucket = env.VSF_S3_BUCKET?.trim();
  if (!bucket) return undefined;
  const endpoint = env.VSF_S3_ENDPOINT?.trim() || undefined;
  if (endpoint && !/^https?:\/\/[^/]/.test(endpoint)) {
    throw new Error(`VSF_S3_ENDPOINT must be an http(s):// URL, got "${endpoint}"; unset it to use AWS S3`);
  }
  const partSizeMb = env.VSF_S3_PART_SIZE_MB?.trim();
  if (
    partSizeMb !== undefined &&
    partSizeMb !== '' &&
    !(Number.isInteger(Number(partSizeMb)) && Number(partSizeMb) >= 5)
  ) {
    throw new Error(
      `VSF_S3_PART_SIZE_MB must be a whole number of MiB, at least 5 (S3's minimum), got "${partSizeMb}"`,
    );
  }
  return {
    bucket,
    endpoint,
    region: env.VSF_S3_REGION?.trim() || undefined,
    prefix: env.VSF_S3_PREFIX,
    ...(partSizeMb ? { partSizeBytes: Number(partSizeMb) * 1024 * 1024 } : {}),
  };
}
