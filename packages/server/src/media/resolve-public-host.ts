import { isIP } from 'node:net';
import { isPublicAddress } from './public-address.js';

/** Why a host is not connected to: stable reasons, shared by the `sourceUrl` fetch and webhook deliveries. */
export type HostRefusal = 'unresolvable' | 'non_public_address';

export type ResolvedHost = { address: string } | { refusal: HostRefusal; message: string };

/**
 * The address to connect to for `url`'s host: an IP literal as it is, a name resolved with `resolve`, and
 * every address it resolves to public (one private answer among public ones refuses the host: the next
 * lookup might return it). The caller connects to the returned address, never resolving again, so a DNS
 * answer that changes between the check and the connection cannot point it inside the network.
 */
export async function resolvePublicHost(
  url: URL,
  resolve: (hostname: string) => Promise<string[]>,
): Promise<ResolvedHost> {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(hostname) ? [hostname] : await resolve(hostname).catch(() => []);
  if (addresses.length === 0) return { refusal: 'unresolvable', message: `Cannot resolve ${hostname}` };
  if (!addresses.every(isPublicAddress)) {
    return {
      refusal: 'non_public_address',
      message: 'The URL points at a private, loopback, link-local or otherwise non-public address',
    };
  }
  return { address: addresses[0] as string };
}
