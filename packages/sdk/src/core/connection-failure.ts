/** System error codes of a request that got no response, in words a person can act on. */
const CAUSES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  ENOTFOUND: 'host not found (DNS)',
  EAI_AGAIN: 'host not found (DNS lookup failed)',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed by the server',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate',
};

/** The first known system error code in a cause chain; undici nests it (and wraps localhost's two addresses in an AggregateError). */
function systemCode(error: unknown, depth = 0): string | undefined {
  if (!error || typeof error !== 'object' || depth > 6) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code in CAUSES) return code;
  for (const inner of (error as { errors?: unknown[] }).errors ?? []) {
    const found = systemCode(inner, depth + 1);
    if (found) return found;
  }
  return systemCode((error as { cause?: unknown }).cause, depth + 1);
}

/**
 * Why a request got no response, in words (`connection refused`): Node's fetch says only "fetch failed" and
 * nests the reason; other runtimes say it in their own message, which is kept.
 */
export function connectionFailure(error: unknown): string {
  const code = systemCode(error);
  if (code) return CAUSES[code] as string;
  const inner = (error as { cause?: { message?: unknown } } | undefined)?.cause?.message;
  const message = (error as { message?: unknown } | undefined)?.message;
  if (typeof inner === 'string' && inner && message === 'fetch failed') return inner;
  return typeof message === 'string' && message ? message : String(error);
}
