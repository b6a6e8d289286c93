import { ConnectionError, TimeoutError } from '@vsf/sdk';

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

/** The first system error code in a cause chain; undici nests it (and wraps localhost's two addresses in an AggregateError). */
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

/** The reason a request never got a response, in words (`connection refused`), or undefined when it did. */
export function networkCause(error: unknown): string | undefined {
  if (error instanceof TimeoutError) return `timed out${/ after \d+ ms/.exec(error.message)?.[0] ?? ''}`;
  if (!(error instanceof ConnectionError)) return undefined;
  const code = systemCode(error.cause);
  if (code) return CAUSES[code];
  const inner = (error.cause as Error | undefined)?.cause as Error | undefined;
  return inner?.message || (error.cause as Error | undefined)?.message || error.message;
}
