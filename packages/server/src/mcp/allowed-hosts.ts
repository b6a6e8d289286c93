import type { Request } from 'express';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

function hostnameOf(host: string): string | undefined {
  const match = /^(\[[^\]]+\]|[^:]+)(?::\d{1,5})?$/.exec(host.trim().toLowerCase());
  return match?.[1];
}

/**
 * DNS rebinding (a page on evil.example whose name resolves to this machine): a browser sends that page's
 * name as `Host` and its origin as `Origin`. `/mcp` answers only requests naming this server: a loopback
 * name (any port: a proxy or tunnel on this machine is the operator's own) or the public address.
 */
export function namesThisServer(req: Request, publicUrl: string | undefined): boolean {
  const publicHost = publicHostOf(publicUrl);
  const host = req.headers.host;
  if (!host || !allowedHost(host, publicHost)) return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && allowedHost(url.host, publicHost);
  } catch {
    return false;
  }
}

function allowedHost(host: string, publicHost: string | undefined): boolean {
  const name = hostnameOf(host);
  return name !== undefined && (LOOPBACK_NAMES.has(name) || host.trim().toLowerCase() === publicHost);
}

/** The public address's host, parsed once for as long as the address stays the same (it is set once, at start). */
let parsed: { url: string; host: string } | undefined;
function publicHostOf(publicUrl: string | undefined): string | undefined {
  if (!publicUrl) return undefined;
  if (parsed?.url !== publicUrl) parsed = { url: publicUrl, host: new URL(publicUrl).host.toLowerCase() };
  return parsed.host;
}
