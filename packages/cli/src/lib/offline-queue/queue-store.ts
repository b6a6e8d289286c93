import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fsyncDir, replaceFileAtomically, writeFileDurably } from './atomic-write.js';
import { entryProblem, type QueueEntry } from './queue-entry.js';
import { queueDir } from './queue-paths.js';

const ENTRY_FILE = 'entry.json';

/** A queue directory vsf cannot trust: named, with the reason, and left for the user (never deleted silently). */
export interface BrokenEntry {
  id: string;
  path: string;
  reason: string;
}

export interface QueueContents {
  entries: QueueEntry[];
  broken: BrokenEntry[];
}

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/**
 * `sha256` on libuv's thread pool (Web Crypto's digest) rather than on the main thread: a drop-off's photos are
 * hashed side by side, and the event loop stays free to send the ones already read.
 */
export const sha256OffThread = async (bytes: Uint8Array): Promise<string> =>
  Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('hex');

/** Sortable by creation time, so listing the directory gives the delivery order. */
function newEntryId(now = new Date()): string {
  return `${now.toISOString().replace(/[-:.]/g, '').replace('T', '-').replace('Z', '')}-${randomBytes(3).toString('hex')}`;
}

export class QueueStore {
  constructor(readonly dir: string = queueDir()) {}

  private ensureDir(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
  }

  entryDir(id: string): string {
    return join(this.dir, id);
  }

  /**
   * Stores a new entry with copies of its photos (the bytes already read, so a file edited or moved since
   * cannot change what is delivered). Built in a hidden directory and renamed into place, so the queue
   * never holds half an entry.
   */
  add(
    entry: Omit<QueueEntry, 'id' | 'photos'> & {
      photos: (Omit<QueueEntry['photos'][number], 'copy'> & { bytes?: Uint8Array })[];
    },
  ): QueueEntry {
    this.ensureDir();
    const id = newEntryId();
    const staging = join(this.dir, `.staging-${id}`);
    mkdirSync(staging, { mode: 0o700 });
    const photos = entry.photos.map(({ bytes, ...photo }, index) => {
      const copy = `photo-${String(index + 1).padStart(3, '0')}${extname(photo.filename).toLowerCase()}`;
      // Acknowledged photos are never sent again; refused ones keep their copy for `vsf queue retry`.
      if (!photo.photoId) {
        if (!bytes) throw new Error(`No bytes for ${photo.source}`);
        writeFileDurably(join(staging, copy), bytes);
      }
      return { ...photo, copy };
    });
    const stored: QueueEntry = { ...entry, id, photos };
    writeFileDurably(join(staging, ENTRY_FILE), `${JSON.stringify(stored, null, 2)}\n`);
    fsyncDir(staging);
    renameSync(staging, this.entryDir(id));
    fsyncDir(this.dir);
    return stored;
  }

  /** Checkpoints an entry's progress (steps acknowledged, attempts, last error). */
  save(entry: QueueEntry): void {
    replaceFileAtomically(join(this.entryDir(entry.id), ENTRY_FILE), `${JSON.stringify(entry, null, 2)}\n`);
  }

  /** Removes an entry: renamed away first, so a crash midway leaves no half-entry in the queue. */
  remove(id: string): void {
    const trash = join(this.dir, `.removed-${id}-${process.pid}`);
    renameSync(this.entryDir(id), trash);
    fsyncDir(this.dir);
    rmSync(trash, { recursive: true, force: true });
  }

  /**
   * Removes what interrupted runs left behind: a staging directory was never acknowledged to the user, a
   * `.removed-` one was already given up. Only old ones, so a run still writing is never disturbed.
   */
  sweepLeftovers(olderThanMs = 3600_000): void {
    if (!existsSync(this.dir)) return;
    for (const name of readdirSync(this.dir)) {
      if (!name.startsWith('.staging-') && !name.startsWith('.removed-')) continue;
      const path = join(this.dir, name);
      if (Date.now() - statSync(path).mtimeMs > olderThanMs) rmSync(path, { recursive: true, force: true });
    }
  }

  has(id: string): boolean {
    return !id.startsWith('.') && !id.includes('/') && existsSync(this.entryDir(id));
  }

  /** Every entry in delivery order, and every directory that cannot be trusted, with the reason. */
  read(): QueueContents {
    const contents: QueueContents = { entries: [], broken: [] };
    if (!existsSync(this.dir)) return contents;
    for (const name of readdirSync(this.dir).sort()) {
      if (name.startsWith('.')) continue; // staging or removal in progress (or interrupted): never acknowledged
      const path = this.entryDir(name);
      const problem = this.check(name, path);
      if (typeof problem === 'string') contents.broken.push({ id: name, path, reason: problem });
      else contents.entries.push(problem);
    }
    return contents;
  }

  private check(name: string, path: string): QueueEntry | string {
    if (!statSync(path).isDirectory()) return 'not a queue entry directory';
    let text: string;
    try {
      text = readFileSync(join(path, ENTRY_FILE), 'utf8');
    } catch {
      return `${ENTRY_FILE} is missing`;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      return `${ENTRY_FILE} is not valid JSON (half-written or edited): ${(error as Error).message}`;
    }
    const problem = entryProblem(parsed, name);
    if (problem) return `${ENTRY_FILE}: ${problem}`;
    const entry = parsed as QueueEntry;
    for (const photo of entry.photos) {
      if (photo.photoId || photo.refused) continue;
      const copy = join(path, photo.copy);
      if (!existsSync(copy)) return `the copy of ${photo.source} (${photo.copy}) is missing`;
      if (statSync(copy).size !== photo.size)
        return `the copy of ${photo.source} (${photo.copy}) is ${statSync(copy).size} bytes, ${photo.size} were queued`;
    }
    return entry;
  }

  /** The bytes of a queued photo, checked against the size and sha256 recorded when it was queued. */
  readPhoto(entry: QueueEntry, photo: QueueEntry['photos'][number]): Uint8Array {
    const bytes = readFileSync(join(this.entryDir(entry.id), photo.copy));
    if (bytes.byteLength !== photo.size || sha256(bytes) !== photo.sha256)
      throw new CorruptCopyError(`the copy of ${photo.source} (${photo.copy}) changed since it was queued`);
    return bytes;
  }
}

/** A photo copy whose bytes no longer match what was queued: the entry needs the user, not a retry. */
export class CorruptCopyError extends Error {}
