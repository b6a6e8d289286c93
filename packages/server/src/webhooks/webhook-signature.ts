import { createHmac, randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '@vsf/contract';

/** A new signing secret: `whsec_` and 32 random bytes, base64url (256 bits, as the HMAC's key size). */
export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * `Vsf-Signature`: `t=<unix seconds>,v1=<hex HMAC-SHA256>` over `<t>.<body>`, keyed with the secret
 * string's UTF-8 bytes (the whole `whsec_…`, so a receiver passes what it was shown). The time is signed
 * with the body, so a receiver can refuse a captured delivery replayed later.
 */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}
