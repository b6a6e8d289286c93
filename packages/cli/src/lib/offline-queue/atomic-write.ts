import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** fsyncs a directory so a rename or a new name in it survives a power cut. */
export function fsyncDir(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes a new file owner-only (0600) and fsyncs it before returning. */
export function writeFileDurably(path: string, data: Uint8Array | string): void {
  const fd = openSync(path, 'wx', 0o600);
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Replaces `path` atomically: temp file, fsync, rename, fsync of the directory. A reader sees the old
 * content or the new, never a mix, even after a crash.
 */
export function replaceFileAtomically(path: string, data: string): void {
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileDurably(temp, data);
  renameSync(temp, path);
  fsyncDir(dirname(path));
}
