import type { BlobStore } from './blob-store.js';

/**
 * Puts an upload's bytes in the store, then records them. A record that fails (a constraint, a lost
 * connection) takes its bytes back out, so a refused upload leaves nothing behind; the caller gets the
 * record's error, never a cleanup failure of the store.
 */
export async function storeThenRecord<T>(
  blobs: BlobStore,
  key: string,
  bytes: Uint8Array,
  record: () => Promise<T>,
): Promise<T> {
  await blobs.put(key, bytes);
  try {
    return await record();
  } catch (error) {
    await blobs.delete(key).catch(() => undefined);
    throw error;
  }
}
