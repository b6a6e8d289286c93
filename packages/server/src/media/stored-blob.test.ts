import { describe, expect, it } from 'vitest';
import { MemoryBlobStore } from './blob-store.js';
import { storeThenRecord } from './stored-blob.js';

describe('storeThenRecord', () => {
  const bytes = new Uint8Array([1, 2, 3]);

  it('keeps the bytes of a recorded upload', async () => {
    const blobs = new MemoryBlobStore();
    expect(await storeThenRecord(blobs, 't/1', bytes, async () => 'row')).toBe('row');
    expect(await blobs.get('t/1')).toEqual(bytes);
  });

  it('takes the bytes back out when the record fails, and throws the record’s error', async () => {
    const blobs = new MemoryBlobStore();
    const refused = new Error('invalid byte sequence for encoding "UTF8": 0x00');
    await expect(storeThenRecord(blobs, 't/2', bytes, () => Promise.reject(refused))).rejects.toBe(refused);
    expect(await blobs.get('t/2')).toBeUndefined();
  });

  it('throws the record’s error, not the store’s, when the bytes cannot be taken out either', async () => {
    const blobs = new MemoryBlobStore();
    blobs.delete = () => Promise.reject(new Error('store down'));
    const refused = new Error('constraint');
    await expect(storeThenRecord(blobs, 't/3', bytes, () => Promise.reject(refused))).rejects.toBe(refused);
  });
});
