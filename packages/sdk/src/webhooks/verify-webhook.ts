import { VsfError } from '../core/errors.js';
import type { V1Event } from '../generated/types.js';

/** The header a delivery's signature travels in: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'Vsf-Signature';
/** How old a delivery's timestamp may be, in seconds, before it is taken for a replay. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

/** A delivery that is not what the server sent, or not now: answer it 400 and do not act on it. */
export class WebhookVerificationError extends VsfError {}

const encoder = new TextEncoder();

/**
 * Checks a webhook delivery and returns its event. `payload` is the request's raw body, byte for byte as
 * received (a re-serialized JSON object has other bytes and fails); `header` the `Vsf-Signature` header;
 * `secret` the `whsec_…` shown when the endpoint was created. The signature is HMAC-SHA256 over
 * `<t>.<payload>`; any one of several `v1=` (a rotated secret) may match, compared in constant time, and
 * `t` must be within `toleranceSeconds` of now, so a captured delivery cannot be replayed later.
 * Web Crypto only: the same code runs on Node, Bun, Deno and in workers.
 */
export async function verifyWebhook(
  payload: string | Uint8Array,
  header: string | null | undefined,
  secret: string,
  toleranceSeconds: number = DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
): Promise<V1Event> {
  checkTolerance(toleranceSeconds);
  if (!header) throw new WebhookVerificationError(`No ${WEBHOOK_SIGNATURE_HEADER} header: not a vsf delivery`);
  const parts = header.split(',').map((part) => part.trim().split('='));
  const timestamp = parts.find(([name]) => name === 't')?.[1];
  const signatures = parts.filter(([name, value]) => name === 'v1' && value).map(([, value]) => value as string);
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || signatures.length === 0) {
    throw new WebhookVerificationError(
      `Malformed ${WEBHOOK_SIGNATURE_HEADER} header: expected t=<unix seconds>,v1=<hex signature>`,
    );
  }
  const age = Math.abs(Date.now() / 1000 - Number(timestamp));
  if (age > toleranceSeconds) {
    throw new WebhookVerificationError(
      `Delivery timestamp is ${Math.round(age)} s from now, over the ${toleranceSeconds} s tolerance: a replay, or a clock to fix`,
    );
  }
  const body = typeof payload === 'string' ? encoder.encode(payload) : payload;
  const expected = await sign(secret, timestamp, body);
  if (!signatures.some((candidate) => equalInConstantTime(expected, candidate.toLowerCase()))) {
    throw new WebhookVerificationError(
      'Signature does not match: the body was changed, or it was signed with another secret',
    );
  }
  try {
    return JSON.parse(new TextDecoder().decode(body)) as V1Event;
  } catch (cause) {
    throw new WebhookVerificationError('Signed body is not JSON', { cause });
  }
}

/**
 * `NaN` compares false with every age and `Infinity` is over none, so either would turn replay protection
 * off without a word; a tolerance that is not a finite positive number of seconds is a mistake in the
 * receiver's code, refused before any delivery is looked at.
 */
function checkTolerance(toleranceSeconds: unknown): void {
  if (typeof toleranceSeconds === 'number' && Number.isFinite(toleranceSeconds) && toleranceSeconds > 0) return;
  throw new RangeError(
    `The webhook tolerance must be a finite number of seconds above 0 (got ${String(toleranceSeconds)}); leave it out for the default ${DEFAULT_WEBHOOK_TOLERANCE_SECONDS} s`,
  );
}

/** The hex HMAC-SHA256 of `<timestamp>.<body>` with the secret's UTF-8 bytes as the key. */
export async function sign(secret: string, timestamp: string, body: Uint8Array): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const prefix = encoder.encode(`${timestamp}.`);
  const message = new Uint8Array(prefix.length + body.length);
  message.set(prefix);
  message.set(body, prefix.length);
  const digest = new Uint8Array(await crypto.subtle.sign('HMAC', key, message));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Time independent of where two strings differ, so a forger learns nothing from how long a refusal took. */
function equalInConstantTime(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
