import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { base64, base64WithBtoa } from './photo-file.js';

describe('base64', () => {
  it('encodes exactly what btoa does, for views into a larger buffer too', () => {
    const backing = new Uint8Array(randomBytes(200_003));
    for (const bytes of [backing, backing.subarray(1), backing.subarray(7, 100_009), new Uint8Array()]) {
      const encoded = base64(bytes);
      expect(encoded).toBe(base64WithBtoa(bytes));
      expect(new Uint8Array(Buffer.from(encoded, 'base64'))).toEqual(bytes);
    }
  });
});
