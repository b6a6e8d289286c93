import { describe, expect, it } from 'vitest';
import { contentTypeMatches, detectImageType } from './image-type.js';

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe('detectImageType', () => {
  it.each([
    [bytes([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg'],
    [bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a]), 'image/png'],
    [bytes('GIF89a'), 'image/gif'],
    [bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '), 'image/webp'],
    [bytes([0, 0, 0, 0x18], 'ftypheic'), 'image/heic'],
    [bytes([0, 0, 0, 0x18], 'ftypavif'), 'image/avif'],
  ])('recognises %#', (input, type) => expect(detectImageType(input)).toBe(type));

  it('rejects other bytes', () => {
    expect(detectImageType(bytes('%PDF-1.7'))).toBeUndefined();
    expect(detectImageType(bytes('<svg'))).toBeUndefined();
    expect(detectImageType(new Uint8Array())).toBeUndefined();
  });

  it('matches declared types with aliases', () => {
    expect(contentTypeMatches('image/jpg', 'image/jpeg')).toBe(true);
    expect(contentTypeMatches('IMAGE/PNG; charset=binary', 'image/png')).toBe(true);
    expect(contentTypeMatches('image/png', 'image/jpeg')).toBe(false);
  });
});
