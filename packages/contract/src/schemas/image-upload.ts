import { IMAGE_MEDIA_TYPE, IMAGE_MEDIA_TYPE_MESSAGE } from '../image-type.js';
import { z } from '../zod.js';
import { BODY_LIMIT_BYTES } from './bounds.js';
import { HttpsUrl } from './media-url.js';

/** An image's media type as a field (image-type.ts says which). */
export const ImageMediaType = z
  .string()
  .max('image/'.length + 127)
  .regex(IMAGE_MEDIA_TYPE, IMAGE_MEDIA_TYPE_MESSAGE)
  // Stored and served in one case, whichever door it came through.
  .toLowerCase()
  .openapi({ example: 'image/jpeg' });

/**
 * The fields every image upload body has (car photos, marketing assets): the bytes inline as `base64` or a
 * `sourceUrl` the server fetches, with the name and declared type. Pair with `hasOneImageSource`.
 */
export const imageUploadFields = {
  filename: z.string().min(1).max(255),
  contentType: ImageMediaType,
  base64: z
    .string()
    .min(1)
    .max(BODY_LIMIT_BYTES)
    .optional()
    .openapi({ description: 'The image bytes, base64; up to 3 MiB decoded' }),
  sourceUrl: HttpsUrl.optional().openapi({
    description:
      'A public https URL the server fetches instead: absolute `https://` with a host, no credentials, whitespace or backslashes (private and internal addresses are refused)',
  }),
};

/** The fields every stored image's record has (car photos, marketing assets): what was uploaded, as stored. */
export const storedImageFields = {
  filename: z.string().openapi({ description: 'The name it was uploaded with' }),
  contentType: z.string().openapi({ description: 'The image’s media type, lowercase: what the bytes are served as' }),
  sizeBytes: z.number().int().openapi({ description: 'The stored bytes’ size, in bytes' }),
};

/**
 * The image part of an upload body's example: one source (the two together are refused), a real 1×1 PNG
 * whose bytes match its type, so "Try it out" stores it as shown.
 */
export const IMAGE_UPLOAD_EXAMPLE = {
  filename: 'front.png',
  contentType: 'image/png',
  base64: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
} as const;

/** `.refine(...hasOneImageSource)`: exactly one of `base64` and `sourceUrl`. */
/**
 * The query of an image sent as raw bytes (the `binary-upload` extension): the create body's fields, less
 * the image's (`contentType` is the request's `Content-Type`, the bytes are its body).
 */
export function binaryUploadQuery(body: z.ZodObject): z.ZodObject {
  const { contentType: _type, base64: _base64, sourceUrl: _url, ...fields } = body.shape;
  return z.strictObject(fields);
}

export const hasOneImageSource: [
  check: (body: { base64?: string | undefined; sourceUrl?: string | undefined }) => boolean,
  params: { message: string; path: string[] },
] = [
  (body) => (body.base64 === undefined) !== (body.sourceUrl === undefined),
  { message: 'Send exactly one of base64 or sourceUrl', path: ['base64'] },
];
