import { PHOTO_MAX_BYTES } from '@vsf/contract';
import { describe, expect, it } from 'vitest';
import { ApiHttpError } from '../errors/api-http-error.js';
import { decodeBase64 } from './image-upload.js';

const bytes = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 37) % 256));
const canonical = bytes.toString('base64');

function refusal(text: string): ApiHttpError {
  try {
    decodeBase64(text);
  } catch (error) {
    if (error instanceof ApiHttpError) return error;
    throw error;
  }
  throw new Error('decodeBase64 accepted it');
}

describe('decodeBase64', () => {
  it('decodes canonical base64, with and without padding', () => {
    expect(Buffer.from(decodeBase64(canonical))).toEqual(bytes);
    for (const length of [1, 2, 3]) {
      const part = bytes.subarray(0, length);
      expect(Buffer.from(decodeBase64(part.toString('base64')))).toEqual(part);
      expect(Buffer.from(decodeBase64(part.toString('base64').replace(/=+$/, '')))).toEqual(part);
    }
  });

  it('accepts the other spellings clients send: data: URLs, line breaks, URL-safe letters', () => {
    expect(Buffer.from(decodeBase64(`data:image/jpeg;base64,${canonical}`))).toEqual(bytes);
    expect(Buffer.from(decodeBase64(canonical.replace(/(.{76})/g, '$1\r\n')))).toEqual(bytes);
    expect(Buffer.from(decodeBase64(bytes.toString('base64url')))).toEqual(bytes);
  });

  it('refuses text that is not base64 with a 400 naming the field', () => {
    for (const text of ['not base64!', `${canonical.slice(0, 8)}*${canonical.slice(9)}`, 'QUJD=A==']) {
      const error = refusal(text);
      expect(error.status).toBe(400);
      expect(JSON.stringify(error.details)).toContain('base64');
    }
  });

  it('refuses more than 3 MiB decoded with a 413, canonical or not', () => {
    const big = Buffer.alloc(PHOTO_MAX_BYTES + 1).toString('base64');
    expect(refusal(big).status).toBe(413);
    expect(refusal(big.replace(/(.{76})/g, '$1\n')).status).toBe(413);
    expect(decodeBase64(Buffer.alloc(PHOTO_MAX_BYTES).toString('base64')).byteLength).toBe(PHOTO_MAX_BYTES);
  });
});
