import { z } from '../zod.js';

/**
 * The fields every image upload body has (car photos, marketing assets): the bytes inline as `base64` or a
 * `sourceUrl` the server fetches, with the name and declared type. Pair with `hasOneImageSource`.
 */
export const imageUploadFields = {
  filename: z.string().min(1).max(255),
  contentType: z.string().regex(/^image\/[\w.+-]+$/, 'Expected an image media type such as image/jpeg'),
  base64: z.string().min(1).optional().openapi({ description: 'The image bytes, base64; up to 3 MiB decoded' }),
  sourceUrl: z
    .url({ protocol: /^https$/, message: 'Expected an https:// URL' })
    .optional()
    .openapi({
      description: 'A public https URL the server fetches instead (private and internal addresses are refused)',
    }),
};

/** `.refine(...hasOneImageSource)`: exactly one of `base64` and `sourceUrl`. */
export const hasOneImageSource: [
  check: (body: { base64?: string | undefined; sourceUrl?: string | undefined }) => boolean,
  params: { message: string; path: string[] },
] = [
  (body) => (body.base64 === undefined) !== (body.sourceUrl === undefined),
  { message: 'Send exactly one of base64 or sourceUrl', path: ['base64'] },
];
