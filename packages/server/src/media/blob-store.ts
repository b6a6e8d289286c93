import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Where media bytes live. Metadata and ownership stay in the database. */
export interface BlobStore {
  put(key: string, bytes: Uint8Array): Promise<void>;
  get(key: string): Promise<Uint8Array | undefined>;
  delete(key: string): Promise<void>;
}

export class MemoryBlobStore implements BlobStore {
  private readonly blobs = new Map<string, Uint8Array>();
  async put(key: string, bytes: Uint8Array) {
    this.blobs.set(key, bytes);
  }
  async get(key: string) {
    return this.blobs.get(key);
  }
  async delete(key: string) {
    this.blobs.delete(key);
  }
}

/** Files under a directory (by default `<VSF_DATA_DIR>/media`); keys are server-generated ids. */
export class FileBlobStore implements BlobStore {
  constructor(private readonly root: string) {}
  private path(key: string) {
    if (!/^[\w/-]+$/.test(key)) throw new Error(`Invalid blob key ${key}`);
    return join(this.root, key);
  }
  async put(key: string, bytes: Uint8Array) {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    // Write then rename, so a reader never sees half a file.
    await writeFile(`${path}.tmp`, bytes);
    await rename(`${path}.tmp`, path);
  }
  async get(key: string) {
    try {
      return new Uint8Array(await readFile(this.path(key)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }
  async delete(key: string) {
    await rm(this.path(key), { force: true });
  }
}
