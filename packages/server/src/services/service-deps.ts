import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { VerifiedKeyCache } from '../keys/verified-key-cache.js';
import type { BlobStore } from '../media/blob-store.js';
import type { PublicFetchDeps } from '../media/fetch-public-image.js';

export interface ServiceDeps {
  db: Knex;
  /** The server's clock; every timestamp the API returns and compares comes from it. */
  now: () => Date;
  /** Verified keys kept in memory; every lookup reads the database when absent. */
  keyCache?: VerifiedKeyCache | undefined;
  /** Where work no request waits for reports its failures (a key's last-use stamp). */
  logger?: Pick<Logger, 'warn'> | undefined;
}

export interface MediaDeps extends ServiceDeps {
  blobs: BlobStore;
  /** The network used for `sourceUrl`; tests stub it. */
  fetchDeps?: PublicFetchDeps | undefined;
}
