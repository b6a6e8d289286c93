import { isIP } from 'node:net';
import { isLoopbackHttpUrl } from '@vsf/contract';
import { ApiHttpError } from '../errors/api-http-error.js';
import { isPublicAddress } from '../media/public-address.js';

const refuse = (reason: 'not_https' | 'non_public_address', message: string) =>
  new ApiHttpError(400, 'validation_error', 'Validation failed', [{ path: 'url', message, reason }]);

/**
 * Refuses, when an endpoint is created or its URL changed, what no delivery would ever be made to: the
 * loopback `http://` form on a server that does not allow it, an IP literal that is not public, a
 * `localhost` name. Other names are resolved and checked before every delivery (they can change).
 */
export function checkWebhookUrl(url: string, allowHttpLoopback: boolean): void {
  if (isLoopbackHttpUrl(url)) {
    if (allowHttpLoopback) return;
    throw refuse(
      'not_https',
      'Only https:// URLs are delivered to; http://127.0.0.1 only on a server started with VSF_WEBHOOK_ALLOW_HTTP_LOOPBACK=1',
    );
  }
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  // RFC 6761: `localhost` and every name under it are the loopback, whatever a resolver says.
  const loopbackName = host === 'localhost' || host.endsWith('.localhost');
  if (loopbackName || (isIP(host) !== 0 && !isPublicAddress(host))) {
    throw refuse(
      'non_public_address',
      'The URL points at a private, loopback, link-local or otherwise non-public address',
    );
  }
}
