import { sign, verifyWebhook, WEBHOOK_SIGNATURE_HEADER } from './verify-webhook.js';

const encoder = new TextEncoder();

/**
 * The `Vsf-Signature` header the server would send with `payload` signed by `secret` at `timestamp` (unix
 * seconds, default now): `t=<timestamp>,v1=<hex HMAC-SHA256 of "<t>.<payload>">`. For testing a receiver
 * without a server, as Stripe's `generateTestHeaderString`: `webhooks.verify` accepts what it returns for
 * the same bytes and secret. `payload` is the body exactly as it will be posted (JSON text, or its bytes).
 */
export async function signWebhook(
  payload: string | Uint8Array,
  secret: string,
  timestamp: number = Math.floor(Date.now() / 1000),
): Promise<string> {
  if (typeof payload !== 'string' && !(payload instanceof Uint8Array)) {
    throw new TypeError(
      'webhooks.sign(payload, …): payload is the body as posted, a string or bytes; JSON.stringify an event first',
    );
  }
  if (typeof secret !== 'string' || secret === '') {
    throw new TypeError('webhooks.sign(…, secret): the endpoint’s signing secret (whsec_…) is required');
  }
  if (!Number.isInteger(timestamp) || timestamp < 0) {
    throw new RangeError(`webhooks.sign(…, timestamp): whole unix seconds >= 0 (got ${String(timestamp)})`);
  }
  const body = typeof payload === 'string' ? encoder.encode(payload) : payload;
  return `t=${timestamp},v1=${await sign(secret, String(timestamp), body)}`;
}

/** `webhooks.verify(payload, header, secret, tolerance)` and `webhooks.sign(payload, secret, timestamp)`, for code that holds no client. */
export const webhooks = {
  verify: verifyWebhook,
  sign: signWebhook,
  signatureHeader: WEBHOOK_SIGNATURE_HEADER,
} as const;
