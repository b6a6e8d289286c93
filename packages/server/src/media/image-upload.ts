import { checkImageBytes, PHOTO_MAX_BYTES } from '@vsf/contract';
import { ApiHttpError, validationFailed } from '../errors/api-http-error.js';
import { fetchPublicImage, type PublicFetchDeps } from './fetch-public-image.js';

/** An uploaded image as the API receives it: the bytes inline (`base64`) or a URL to fetch (`sourceUrl`). */
export interface ImageUploadSource {
  contentType: string;
  base64?: string | undefined;
  sourceUrl?: string | undefined;
  /** The bytes themselves, sent raw (the `binary-upload` extension; the reader kept them under 3 MiB). */
  bytes?: Uint8Array | undefined;
}

export interface VerifiedImage {
  bytes: Uint8Array;
  /** The type the bytes really are (the declared type agreed with it). */
  contentType: string;
}

/**
 * The byte rules every image upload (car photos, marketing assets) follows: at most 3 MiB decoded (413),
 * `sourceUrl` fetched through the public-address guard, and the declared type must match the magic bytes.
 */
export async function readImageUpload(
  source: ImageUploadSource,
  fetchDeps: PublicFetchDeps | undefined,
): Promise<VerifiedImage> {
  const bytes =
    source.bytes ??
    (source.base64 !== undefined
      ? decodeBase64(source.base64)
      : await fetchPublicImage(source.sourceUrl as string, { maxBytes: PHOTO_MAX_BYTES, deps: fetchDeps }));
  const checked = checkImageBytes(bytes, source.contentType);
  if (checked.problem) throw validationFailed([checked.problem]);
  return { bytes, contentType: checked.contentType };
}

/**
 * Decodes an upload's base64. Clients send canonical base64 almost always, and a 3 MiB photo is 4.4 M
 * characters: two regular-expression passes over it cost more than the rest of the upload's CPU. So the
 * canonical case is proven by re-encoding (native, no scan in JS); only other spellings (a `data:` URL
 * prefix, line breaks, URL-safe letters, no padding) take the slower normalising path.
 */
export function decodeBase64(text: string): Uint8Array {
  if (text.length % 4 === 0 && decodedSize(text) <= PHOTO_MAX_BYTES) {
    const bytes = Buffer.from(text, 'base64');
    if (bytes.toString('base64') === text) return bytes;
  }
  const clean = text.replace(/^data:[^,]*,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(clean))
    throw validationFailed([{ path: 'base64', message: 'Not valid base64' }]);
  // Decoded size, known before decoding: refuse big bodies without allocating them.
  const size = decodedSize(clean);
  if (size > PHOTO_MAX_BYTES) {
    throw new ApiHttpError(
      413,
      'payload_too_large',
      `The image is ${size} bytes; the limit is ${PHOTO_MAX_BYTES} (3 MiB)`,
    );
  }
  return Buffer.from(clean, 'base64');
}

function decodedSize(clean: string): number {
  return Math.floor((clean.length * 3) / 4) - (clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0);
}
