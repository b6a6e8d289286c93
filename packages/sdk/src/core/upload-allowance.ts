import { type JsonText, RawBody } from './request-body.js';

/**
 * The slowest uplink an attempt waits for: 8 KiB/s (~64 kbit/s), a poor mobile connection. With the client's
 * timeout alone covering the upload, a 3 MiB photo (4 MiB as base64) timed out on every attempt below ~55 KB/s
 * and could never be sent; the server gives up on a body only after 60 s without a byte.
 */
export const MIN_UPLOAD_BYTES_PER_SECOND = 8 * 1024;

/**
 * The ms an attempt gets, on top of the client's timeout, to send `body` at the minimum rate: ~40 ms for a
 * few hundred bytes of JSON, 8.5 min for a photo as base64, nothing without a body.
 */
export function uploadAllowance(body: JsonText | RawBody | undefined): number {
  const bytes = body instanceof RawBody ? body.bytes.byteLength : body ? utf8Length(body.text) : 0;
  return Math.ceil((bytes / MIN_UPLOAD_BYTES_PER_SECOND) * 1000);
}

interface NodeBufferLike {
  byteLength(text: string): number;
}

/** Node's Buffer counts 4 MiB of base64 in ~1 ms without encoding it; TextEncoder stays for other runtimes. */
function utf8Length(text: string): number {
  const NodeBuffer = (globalThis as { Buffer?: NodeBufferLike }).Buffer;
  return NodeBuffer ? NodeBuffer.byteLength(text) : new TextEncoder().encode(text).byteLength;
}
