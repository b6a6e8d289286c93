import { createHash, randomBytes } from 'node:crypto';

/**
 * Access and refresh tokens, codes and sign-in request ids: 32 random bytes behind a prefix that says
 * what the string is (a leaked one is recognisable in logs and secret scanners, as `vsf_` keys are).
 */
export const TOKEN_PREFIX = { access: 'vsfat_', refresh: 'vsfrt_', code: 'vsfac_', request: 'vsfsr_' } as const;

export function newSecret(kind: keyof typeof TOKEN_PREFIX): string {
  return `${TOKEN_PREFIX[kind]}${randomBytes(32).toString('base64url')}`;
}

/** What is stored: the secrets carry 256 random bits, so a plain SHA-256 cannot be reversed by guessing. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Whether a presented credential has the shape of an access token (and is to be looked up as one). */
export function isAccessToken(presented: string): boolean {
  return presented.startsWith(TOKEN_PREFIX.access);
}
