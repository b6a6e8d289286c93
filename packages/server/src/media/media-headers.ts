import type { MediaRow } from '../repositories/tables.js';

/** Percent-encodes a header parameter value, including the characters encodeURIComponent leaves. */
const rfc5987 = (value: string) =>
  encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The headers `GET /api/media/{id}` sends with a stored file's bytes. */
export function mediaHeaders(row: Pick<MediaRow, 'contentType' | 'filename'>): Record<string, string> {
  return {
    'Content-Type': row.contentType,
    // Headers are Latin-1: an ASCII fallback name, and the real one percent-encoded (RFC 6266).
    'Content-Disposition': `inline; filename="${row.filename.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${rfc5987(row.filename)}`,
    'Cache-Control': 'private, max-age=3600',
  };
}
