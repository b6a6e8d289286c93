import { detectImageType, PHOTO_MAX_BYTES } from '@vsf/contract';
import { VsfError } from './errors.js';

/** A photo's bytes, wherever they came from; Node readable streams are async iterables of chunks. */
export type PhotoBytes = Uint8Array | ArrayBuffer | Blob | AsyncIterable<Uint8Array>;

const EXTENSIONS: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heic',
  avif: 'image/avif',
};

/** The image type from magic bytes (the same check the server makes), else from the file extension. */
export function inferContentType(bytes: Uint8Array, filename?: string): string | undefined {
  const detected = detectImageType(bytes);
  if (detected) return detected;
  const ext = filename?.split('.').pop()?.toLowerCase();
  return ext ? EXTENSIONS[ext] : undefined;
}

export async function toBytes(file: PhotoBytes): Promise<Uint8Array> {
  if (file instanceof Uint8Array) return file;
  if (file instanceof ArrayBuffer) return new Uint8Array(file);
  if (file instanceof Blob) return new Uint8Array(await file.arrayBuffer());
  // A stream: read it, but stop as soon as it is over the limit instead of buffering all of it.
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of file) {
    size += chunk.byteLength;
    if (size > PHOTO_MAX_BYTES) throw new VsfError(`The photo stream is over ${PHOTO_MAX_BYTES} bytes (3 MiB)`);
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** Refuses what the server would refuse, before spending a request on it. */
export function checkPhoto(bytes: Uint8Array, filename: string, contentType: string | undefined): string {
  if (bytes.byteLength > PHOTO_MAX_BYTES) {
    throw new VsfError(
      `${filename} is ${bytes.byteLength} bytes; photos are limited to ${PHOTO_MAX_BYTES} bytes (3 MiB)`,
    );
  }
  if (!contentType?.startsWith('image/'))
    throw new VsfError(`${filename} is not an image (JPEG, PNG, GIF, WebP, HEIC or AVIF)`);
  return contentType;
}

export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
