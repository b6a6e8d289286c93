import { createHash } from 'node:crypto';
import { IMAGE_MEDIA_TYPE, IMAGE_MEDIA_TYPE_MESSAGE, PHOTO_MAX_BYTES } from '@vsf/contract';
import type { Request } from 'express';
import { ApiHttpError } from '../errors/api-http-error.js';
import type { BodyTimeouts } from './body-timeouts.js';
import { readBodyBytes } from './read-body-bytes.js';

/** 413 for an image over 3 MiB, with its declared size when known. */
export const imageTooLarge = (size?: number) =>
  new ApiHttpError(
    413,
    'payload_too_large',
    `The image is ${size === undefined ? 'over' : `${size} bytes;`} the limit${size === undefined ? ' of' : ' is'} ${PHOTO_MAX_BYTES} bytes (3 MiB)`,
  );

/** Whether a request sends an image's bytes (the `binary-upload` extension) rather than JSON. */
export function isImageBody(req: Request): boolean {
  return /^image\//i.test(req.get('content-type') ?? '');
}

/** The request's media type without parameters (`image/jpeg; q=1` → `image/jpeg`). */
export function mediaTypeOf(req: Request): string {
  return (req.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * The image's media type from a raw body's `Content-Type`, held to the rule a JSON `contentType` and a form
 * meet (IMAGE_MEDIA_TYPE): the header is the field here, and is stored and served as the image's type.
 */
export function imageMediaTypeOf(req: Request): string {
  const type = mediaTypeOf(req);
  if (IMAGE_MEDIA_TYPE.test(type)) return type;
  throw new ApiHttpError(
    415,
    'unsupported_media_type',
    `Content-Type "${type.slice(0, 140)}" is not an image media type: ${IMAGE_MEDIA_TYPE_MESSAGE} (image/ and up to 127 letters, digits or . + - _)`,
  );
}

/**
 * Reads an image body, read only after authentication like a JSON one. At most 3 MiB, refused by its
 * `Content-Length` before a byte is read, or as soon as the stream passes the limit; no `Content-Encoding`
 * (images are compressed already).
 */
export async function readImageBody(req: Request, timeouts: BodyTimeouts): Promise<Uint8Array> {
  refuseContentEncoding(req);
  return readBodyBytes(req, { limit: PHOTO_MAX_BYTES, tooLarge: imageTooLarge, timeouts });
}

/** Image bodies come without a `Content-Encoding`: images are compressed already. */
export function refuseContentEncoding(req: Request): void {
  const encoding = (req.get('content-encoding') ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity') {
    req.resume();
    throw new ApiHttpError(415, 'unsupported_media_type', 'Send image bytes without a Content-Encoding');
  }
}

/** What makes two image requests the same for an Idempotency-Key: their fields and the bytes' digest. */
export function imageFingerprintBody(fields: Record<string, unknown>, bytes: Uint8Array): Record<string, unknown> {
  return { ...fields, sha256: createHash('sha256').update(bytes).digest('hex') };
}
