import { contentTypeMatches, detectImageType, PHOTO_MAX_BYTES } from '../generated/image-type.js';
import { NotAnImageError, PhotoTooLargeError, VsfError } from './errors.js';

/** A photo's bytes, wherever they came from; Node readable streams are async iterables of chunks. */
export type PhotoBytes = Uint8Array | ArrayBuffer | Blob | AsyncIterable<Uint8Array>;

/** What `upload` takes as `file`: bytes, or a file path once `@vsf/sdk/node` has been imported. */
export type PhotoSource = PhotoBytes | string;

/** Opens a path as a stream of bytes; installed by `@vsf/sdk/node`, since the core imports nothing from Node. */
export type PathOpener = (path: string) => AsyncIterable<Uint8Array>;

// A global symbol, not a module variable: the ESM and CommonJS builds of the SDK may both be loaded in one process.
const PATH_OPENER = Symbol.for('@vsf/sdk.openPhotoPath');
type WithOpener = { [PATH_OPENER]?: PathOpener };

/** @internal Called by `@vsf/sdk/node` when imported. */
export function installPathOpener(opener: PathOpener): void {
  (globalThis as WithOpener)[PATH_OPENER] = opener;
}

function openPath(path: string): AsyncIterable<Uint8Array> {
  const opener = (globalThis as WithOpener)[PATH_OPENER];
  if (!opener) {
    throw new VsfError(
      `Cannot read ${path}: file paths need Node. Add \`import '@vsf/sdk/node'\` once, or pass the bytes, a Blob or a stream`,
      { code: 'file_path_unsupported' },
    );
  }
  return opener(path);
}

/** The file name a source carries, if any: a path, a `File`, or a Node file stream's `path`. */
export function sourceFilename(file: PhotoSource): string | undefined {
  const path =
    typeof file === 'string'
      ? file
      : typeof Blob !== 'undefined' && file instanceof Blob && 'name' in file
        ? String(file.name)
        : (file as { path?: unknown }).path;
  return typeof path === 'string' && path ? path.split(/[\\/]/).pop() || undefined : undefined;
}

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

export async function toBytes(source: PhotoSource): Promise<Uint8Array> {
  // A path is streamed, so a huge file is refused at the limit rather than read whole.
  const file = typeof source === 'string' ? openPath(source) : source;
  if (file instanceof Uint8Array) return file;
  if (file instanceof ArrayBuffer) return new Uint8Array(file);
  if (file instanceof Blob) return new Uint8Array(await file.arrayBuffer());
  // A stream: read it, but stop as soon as it is over the limit instead of buffering all of it.
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of file) {
    size += chunk.byteLength;
    if (size > PHOTO_MAX_BYTES)
      throw new PhotoTooLargeError(`The photo stream is over ${PHOTO_MAX_BYTES} bytes (3 MiB)`);
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

/**
 * Refuses what the server would refuse, before spending a request on it: over 3 MiB, bytes that are not a
 * JPEG, PNG, GIF, WebP, HEIC or AVIF (whatever the file is called), or a declared type the bytes contradict.
 * Returns the type to send.
 */
export function checkPhoto(bytes: Uint8Array, filename: string, contentType: string | undefined): string {
  if (bytes.byteLength > PHOTO_MAX_BYTES) {
    throw new PhotoTooLargeError(
      `${filename} is ${bytes.byteLength} bytes; photos are limited to ${PHOTO_MAX_BYTES} bytes (3 MiB)`,
    );
  }
  const detected = detectImageType(bytes);
  if (!detected)
    throw new NotAnImageError(`${filename} is not an image: its bytes are not a JPEG, PNG, GIF, WebP, HEIC or AVIF`);
  if (contentType && !contentTypeMatches(contentType, detected))
    throw new NotAnImageError(
      `${filename} is declared ${contentType} but its bytes are ${detected}`,
      'image_type_mismatch',
    );
  return contentType ?? detected;
}

interface NodeBufferLike {
  from(buffer: ArrayBufferLike, byteOffset: number, length: number): { toString(encoding: 'base64'): string };
}

/**
 * Node's Buffer encodes a 2.5 MB photo in ~7 ms; btoa over a binary string took ~500 ms, which made
 * `vsf photos upload` slower with four uploads at a time than a plain loop. btoa stays for runtimes
 * without Buffer (browsers).
 */
export function base64(bytes: Uint8Array): string {
  const NodeBuffer = (globalThis as { Buffer?: NodeBufferLike }).Buffer;
  if (NodeBuffer) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  return base64WithBtoa(bytes);
}

/** @internal Exported for the test that compares it with Buffer's encoding; not part of the package API. */
export function base64WithBtoa(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
