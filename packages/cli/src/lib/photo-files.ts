import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { detectImageType, PHOTO_MAX_BYTES } from '@vsf/contract/image-type';
import { CliError, EXIT } from './exit-codes.js';

export interface PhotoFile {
  path: string;
  size: number;
}

export interface PhotoProblem {
  path: string;
  reason: string;
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

const unreadable = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EACCES' || code === 'EPERM' ? 'cannot be read (permission denied)' : `cannot be read (${code})`;
};

/**
 * Expands directories (leaving out hidden files such as `.DS_Store`) and checks every photo — it exists, can
 * be read, its bytes are an image as the server decides (a text file called `fake.jpg` is not), it is at
 * most 3 MiB — and returns the photos and the problems found, all of them, before any request is made.
 */
export async function checkPhotoFiles(inputs: string[]): Promise<{ photos: PhotoFile[]; problems: PhotoProblem[] }> {
  const photos: PhotoFile[] = [];
  const problems: PhotoProblem[] = [];
  const visit = async (path: string, named: boolean) => {
    const info = await stat(path).catch((error: NodeJS.ErrnoException) => error);
    if (info instanceof Error)
      return void problems.push({ path, reason: info.code === 'ENOENT' ? 'not found' : unreadable(info) });
    if (info.isDirectory()) {
      const entries = await readdir(path).catch((error: unknown) => error as Error);
      if (entries instanceof Error) return void problems.push({ path, reason: unreadable(entries) });
      const visible = entries.filter((name) => !name.startsWith('.')).sort();
      if (named && visible.length === 0) problems.push({ path, reason: 'an empty directory: no photos in it' });
      for (const entry of visible) await visit(join(path, entry), false);
      return;
    }
    const head = await readHead(path).catch((error: unknown) => error as Error);
    if (head instanceof Error) return void problems.push({ path, reason: unreadable(head) });
    if (!detectImageType(head))
      return void problems.push({
        path,
        reason: 'not an image (its bytes are not a JPEG, PNG, GIF, WebP, HEIC or AVIF)',
      });
    if (info.size > PHOTO_MAX_BYTES)
      return void problems.push({ path, reason: `${info.size} bytes, over the 3 MiB limit` });
    photos.push({ path, size: info.size });
  };
  for (const input of inputs) await visit(input, true);
  return { photos, problems };
}

/**
 * The photos to send, or a usage error (exit 2) listing every file that cannot be sent: nothing is logged
 * or uploaded for a command with a typo in a file name.
 */
export async function photosToSend(inputs: string[]): Promise<PhotoFile[]> {
  const { photos, problems } = await checkPhotoFiles(inputs);
  if (problems.length === 0) return photos;
  const lines = problems.map((p) => `  ${p.path}: ${p.reason}`).join('\n');
  throw new CliError(
    `${problems.length === 1 ? 'A photo cannot' : `${problems.length} photos cannot`} be sent, so nothing was sent:\n${lines}\nFix or leave out ${problems.length === 1 ? 'that file' : 'those files'} and run the command again`,
    EXIT.usage,
  );
}
