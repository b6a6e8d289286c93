import { readdir, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { PHOTO_MAX_BYTES } from '@vsf/sdk';

const IMAGE_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png', '.gif', '.webp', '.heic', '.heif', '.avif']);

export interface PhotoFile {
  path: string;
  size: number;
}

export interface PhotoScan {
  accepted: PhotoFile[];
  skipped: { path: string; reason: string }[];
}

/** Expands directories and sorts out what cannot be uploaded, before any request is made. */
export async function scanPhotoFiles(inputs: string[]): Promise<PhotoScan> {
  const scan: PhotoScan = { accepted: [], skipped: [] };
  const visit = async (path: string) => {
    const info = await stat(path).catch(() => undefined);
    if (!info) return void scan.skipped.push({ path, reason: 'not found' });
    if (info.isDirectory()) {
      for (const entry of (await readdir(path)).sort()) await visit(join(path, entry));
      return;
    }
    if (!IMAGE_EXTENSIONS.has(extname(path).toLowerCase()))
      return void scan.skipped.push({ path, reason: 'not an image' });
    if (info.size > PHOTO_MAX_BYTES)
      return void scan.skipped.push({ path, reason: `${info.size} bytes, over the 3 MiB limit` });
    scan.accepted.push({ path, size: info.size });
  };
  for (const input of inputs) await visit(input);
  return scan;
}
