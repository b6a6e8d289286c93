// Zod-free on purpose: the SDK and the CLI import this file alone (`@vsf/contract/image-type`) to refuse
// non-images before a request, without loading the contract's schemas.

/**
 * An image's declared media type, whichever way it comes (a JSON `contentType`, a form field, a file part's
 * or a raw body's `Content-Type`): `image/` and a subtype of up to 127 characters, RFC 6838's bound, in any
 * case (media types are case-insensitive).
 */
// `image` spelt in either case without the `i` flag, which an OpenAPI (JSON Schema) pattern cannot carry.
export const IMAGE_MEDIA_TYPE = /^[Ii][Mm][Aa][Gg][Ee]\/[\w.+-]{1,127}$/;
export const IMAGE_MEDIA_TYPE_MESSAGE = 'Expected an image media type such as image/jpeg';

/** The decoded size limit of an uploaded image (car photos, marketing assets). */
export const PHOTO_MAX_BYTES = 3 * 1024 * 1024;

/** The image format the bytes actually are, from their magic numbers; undefined when not an image we accept. */
export function detectImageType(bytes: Uint8Array): string | undefined {
  const at = (offset: number, ...values: number[]) => values.every((v, i) => bytes[offset + i] === v);
  const ascii = (offset: number, text: string) => at(offset, ...[...text].map((c) => c.charCodeAt(0)));
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'image/gif';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  if (ascii(4, 'ftyp')) {
    const brand = String.fromCharCode(...bytes.slice(8, 12));
    if (['avif', 'avis'].includes(brand)) return 'image/avif';
    if (['heic', 'heix', 'hevc', 'hevx', 'mif1', 'msf1'].includes(brand)) return 'image/heic';
  }
  return undefined;
}

const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/heif': 'image/heic',
};

/** Whether a declared media type names the detected format. */
export function contentTypeMatches(declared: string, detected: string): boolean {
  const normalized = declared.toLowerCase().split(';')[0]?.trim() ?? '';
  return (ALIASES[normalized] ?? normalized) === detected;
}
