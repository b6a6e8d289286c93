import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { detectImageType, PHOTO_MAX_BYTES } from '@vsf/contract/image-type';

export interface PhotoFile {
  path: string;
  size: number;
}

export interface PhotoScan {
  accepted: PhotoFile[];
  skipped: { path: string; reason: string }[];
}

/** Enough of the head of a file for every magic number `detectImageType` knows. */
const HEAD_BYTES = 32;

async function readHead(path: string): Promise<Uint8Array> {
  const file = await open(path, 'r');
  try {
    const head = new Uint8Array(HEAD_BYTES);
    const { bytesRead } = await file.read(head, 0, HEAD_BYTES, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/**
 * Expands directories and sorts out what cannot be uploaded, before any request is made. A file is an image
 * by its bytes, as the server decides, not by its name: a text file called `fake.jpg` is skipped.
 */
export async function scanPhotoFiles(inputs: string[]): Promise<PhotoScan> {
  const scan: PhotoScan = { accepted: [], skipped: [] };
  const visit = async (path: string) => {
    const info = await stat(path).catch(() => undefined);
    if (!info) return void scan.skipped.push({ path, reason: 'not found' });
    if (info.isDirectory()) {
      for (const entry of (await readdir(path)).sort()) await visit(join(path, entry));
      return;
    }
    if (!detectImageType(await readHead(path)))
      return void scan.skipped.push({
        path,
        reason: 'not an image (its bytes are not a JPEG, PNG, GIF, WebP, HEIC or AVIF)',
      });
    if (info.size > PHOTO_MAX_BYTES)
      return void scan.skipped.push({ path, reason: `${info.size} bytes, over the 3 MiB limit` });
    scan.accepted.push({ path, size: info.size });
  };
  for (const input of inputs) await visit(input);
  return scan;
}
