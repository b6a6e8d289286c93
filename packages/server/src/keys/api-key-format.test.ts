import { describe, expect, it } from 'vitest';
import { generateApiKey, hashSecret, parseApiKey, redactApiKey, safeEqual, secretMatches } from './api-key-format.js';

describe('API key format', () => {
  it('generates vsf_<12 base36>.<base64url secret of 32 bytes> and stores only a hash', () => {
    const { key, prefix, secretHash } = generateApiKey();
    expect(key).toMatch(/^vsf_[0-9a-z]{12}\.[A-Za-z0-9_-]{43}$/);
    const parsed = parseApiKey(key);
    expect(parsed?.prefix).toBe(prefix);
    expect(secretHash).not.toContain(parsed?.secret);
    expect(secretHash).toBe(hashSecret(parsed?.secret ?? ''));
    expect(secretMatches(parsed?.secret ?? '', secretHash)).toBe(true);
    expect(secretMatches(`${parsed?.secret}x`, secretHash)).toBe(false);
  });

  it('generates distinct keys', () => {
    const keys = new Set(Array.from({ length: 50 }, () => generateApiKey().key));
    expect(keys.size).toBe(50);
  });

  it.each([
    '',
    'vsf_short.secret',
    'sk_abcdefghijkl.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    'vsf_ABCDEFGHIJKL.x',
  ])('rejects malformed key %j', (key) => expect(parseApiKey(key)).toBeUndefined());

  it('redacts the secret', () => {
    const { key, prefix } = generateApiKey();
    expect(redactApiKey(key)).toBe(`vsf_${prefix}.****`);
    expect(redactApiKey('garbage')).toBe('****');
  });

  it('compares tokens of different lengths safely', () => {
    expect(safeEqual('a-long-admin-token', 'a-long-admin-token')).toBe(true);
    expect(safeEqual('a-long-admin-token', 'a')).toBe(false);
  });
});
