import { hash } from 'node:crypto';

const EMPTY = 'W/"0-2jmj7l5rSw0yVb/vlWAYkK/YBwk"';

/**
 * Express's default ETag (the `etag` package's weak tag: byte length and SHA-1) computed in one call on
 * the string itself: Express copies a string body into a Buffer first and then streams it through a
 * hash object, which on a small read cost as much as the rest of writing the response.
 */
export function weakEtag(body: string | Buffer, encoding: BufferEncoding = 'utf8'): string {
  const utf8 = typeof body === 'string' && (encoding === 'utf8' || encoding === 'utf-8');
  const bytes = utf8 ? body : typeof body === 'string' ? Buffer.from(body, encoding) : body;
  const length = typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.length;
  if (length === 0) return EMPTY;
  return `W/"${length.toString(16)}-${hash('sha1', bytes, 'base64').slice(0, 27)}"`;
}
