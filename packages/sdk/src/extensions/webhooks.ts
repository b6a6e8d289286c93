import { APIResource } from '../core/api-resource.js';
import type { V1Event } from '../generated/types.js';
import { signWebhook } from '../webhooks/sign-webhook.js';
import { verifyWebhook } from '../webhooks/verify-webhook.js';

/** Hand-written beside the generated endpoint methods: checking a delivery needs no request. */
export class WebhooksResourceExtension extends APIResource {
  /** Checks a delivery's signature and age and returns its event; see `verifyWebhook`. */
  verify(
    payload: string | Uint8Array,
    header: string | null | undefined,
    secret: string,
    toleranceSeconds?: number,
  ): Promise<V1Event> {
    return verifyWebhook(payload, header, secret, toleranceSeconds);
  }

  /** The `Vsf-Signature` header of `payload` signed with `secret`, for testing a receiver; see `signWebhook`. */
  sign(payload: string | Uint8Array, secret: string, timestamp?: number): Promise<string> {
    return signWebhook(payload, secret, timestamp);
  }
}
