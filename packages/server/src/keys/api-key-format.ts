import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

export const KEY_TAG = 'vsf';
const PREFIX_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const PREFIX_LENGTH = 12;
const SECRET_BYTES = 32;
const KEY_PATTERN = /^vsf_([0-9a-z]{12})\.([A-Za-z0-9_-]{43,128})$/;

export interface GeneratedApiKey {
  /** The full key, shown to its owner once. */
  key: string;
  /** Public lookup id. */
  prefix: string;
  /** What the database keeps instead of the secret. */
  secretHash: string;
}

export function generateApiKey(): GeneratedApiKey {
  let prefix = '';
  for (let i = 0; i < PREFIX_LENGTH; i++) prefix += PREFIX_ALPHABET[randomInt(PREFIX_ALPHABET.length)];
  const secret = randomBytes(SECRET_BYTES).toString('base64url');
  return { key: `${KEY_TAG}_${prefix}.${secret}`, prefix, secretHash: hashSecret(secret) };
}

export function parseApiKey(key: string): { prefix: string; secret: string } | undefined {
  const match = KEY_PATTERN.exec(key);
  return match ? { prefix: match[1] as string, secret: match[2] as string } : undefined;
}

// The secret is 256 random bits, so a fast hash is enough: there is nothing to brute-force.
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const actual = Buffer.from(hashSecret(secret), 'hex');
  const expected = Buffer.from(storedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Constant-time comparison of two strings of possibly different lengths (admin token). */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/** `vsf_abc123…` with the secret hidden, for logs and listings. */
export function redactApiKey(key: string): string {
  const parsed = parseApiKey(key);
  return parsed ? `${KEY_TAG}_${parsed.prefix}.****` : '****';
}
