import { isIP } from 'node:net';
import type { Request } from 'express';

/** Headers a proxy adds: with any of them the real client is elsewhere, whatever the socket says. */
const FORWARDING_HEADERS = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
  'via',
];

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** 127.0.0.0/8, ::1, and 127/8 in its IPv4-mapped IPv6 form (a dual-stack socket's view of IPv4). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  if (isIP(v4) === 4) return v4.startsWith('127.');
  return address === '::1';
}

/**
 * True only for a request a browser on this machine sent straight to this server: the peer is loopback,
 * no proxy header is present, and `Host` names a loopback address with the port the request arrived on.
 * The Host check defeats DNS rebinding (`evil.example:3000` resolving to 127.0.0.1) and tunnels that
 * forward a remote client to a local socket without adding a header (`ssh -L`, `kubectl port-forward`
 * keep the remote port or a different host name).
 */
export function isDirectLoopbackRequest(req: Request): boolean {
  if (FORWARDING_HEADERS.some((name) => req.headers[name] !== undefined)) return false;
  if (!isLoopbackAddress(req.socket.remoteAddress)) return false;
  const host = requestHost(req)?.toLowerCase();
  const match = host ? /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(host) : null;
  if (!match || !LOOPBACK_HOSTNAMES.has(match[1] as string)) return false;
  const port = match[2] === undefined ? 80 : Number(match[2]);
  return port === req.socket.localPort;
}

/**
 * The host a request names: an absolute-form request line's own (`GET http://host:port/path`), which RFC 9112
 * §3.2.2 says wins over `Host`; otherwise `Host`. Undefined for any other form (`*`, authority-form).
 */
function requestHost(req: Request): string | undefined {
  const target = req.originalUrl;
  if (target.startsWith('/')) return req.headers.host;
  if (!/^https?:\/\//i.test(target)) return undefined;
  try {
    // `host` keeps the port as written, and drops a default one (`:80`), which then reads as port 80.
    return new URL(target).host;
  } catch {
    return undefined;
  }
}
