/**
 * What kind of failure a request that got no response met. `refused`, `host_not_found` and `port_blocked`
 * mean nothing answers at that address (the server is down or the URL is wrong); the rest are blips.
 */
export type ConnectionFailureKind =
  | 'refused'
  | 'host_not_found'
  | 'dns_failed'
  | 'reset'
  | 'timed_out'
  | 'host_unreachable'
  | 'network_unreachable'
  | 'tls'
  | 'port_blocked'
  | 'other';

export interface ConnectionFailure {
  kind: ConnectionFailureKind;
  /** In words a person can act on (`connection refused`), the same on every runtime. */
  reason: string;
}

const REASONS: Record<Exclude<ConnectionFailureKind, 'tls' | 'other'>, string> = {
  refused: 'connection refused',
  host_not_found: 'host not found (DNS)',
  dns_failed: 'host not found (DNS lookup failed)',
  reset: 'connection reset',
  timed_out: 'connection timed out',
  host_unreachable: 'host unreachable',
  network_unreachable: 'network unreachable',
  port_blocked: 'port blocked by fetch (one of the Fetch standard’s bad ports)',
};

const failure = (kind: keyof typeof REASONS): ConnectionFailure => ({ kind, reason: REASONS[kind] });

/** Error codes: Node's system errors, undici's, and Bun's (which sets its own names on the error itself). */
const BY_CODE: Record<string, ConnectionFailure> = {
  ECONNREFUSED: failure('refused'),
  ConnectionRefused: failure('refused'),
  ECONNRESET: failure('reset'),
  EPIPE: failure('reset'),
  // undici's "other side closed": the server dropped the connection before answering.
  UND_ERR_SOCKET: failure('reset'),
  ConnectionClosed: failure('reset'),
  ENOTFOUND: failure('host_not_found'),
  DNSLookupFailed: failure('host_not_found'),
  EAI_AGAIN: failure('dns_failed'),
  ETIMEDOUT: failure('timed_out'),
  UND_ERR_CONNECT_TIMEOUT: failure('timed_out'),
  EHOSTUNREACH: failure('host_unreachable'),
  ENETUNREACH: failure('network_unreachable'),
  CERT_HAS_EXPIRED: { kind: 'tls', reason: 'TLS certificate expired' },
  DEPTH_ZERO_SELF_SIGNED_CERT: { kind: 'tls', reason: 'self-signed TLS certificate' },
};

/**
 * Runtimes that give no code say it in words: Deno (`tcp connect error: Connection refused (os error 111)`,
 * `dns error: failed to lookup address information`), undici's `bad port`, and the operating system's own
 * text and numbers on Linux, macOS and Windows. The first match wins, so narrower patterns come first.
 */
const BY_MESSAGE: [RegExp, ConnectionFailure][] = [
  [/\bbad port\b|port \d+ is not allowed|blocked port/i, failure('port_blocked')],
  [/temporary failure in name resolution|os error (-3|11002)\b/i, failure('dns_failed')],
  [
    /dns error|failed to lookup address|name or service not known|nodename nor servname|no such host|os error 11001\b/i,
    failure('host_not_found'),
  ],
  [/connection refused|actively refused|os error (111|61|10061)\b/i, failure('refused')],
  [/connection reset|os error (104|54|10054)\b/i, failure('reset')],
  [/timed out|os error (110|60|10060)\b/i, failure('timed_out')],
  [/no route to host|os error (113|65|10065)\b/i, failure('host_unreachable')],
  [/network is unreachable|os error (101|51|10051)\b/i, failure('network_unreachable')],
  [/invalid peer certificate|certificate verify failed/i, { kind: 'tls', reason: 'TLS certificate not accepted' }],
];

/** Every error in a cause chain: undici nests the system error, and wraps localhost's two addresses in an AggregateError. */
function chain(error: unknown, depth = 0): unknown[] {
  if (!error || typeof error !== 'object' || depth > 6) return [];
  const inner = (error as { errors?: unknown }).errors;
  const nested = Array.isArray(inner) ? inner.flatMap((e) => chain(e, depth + 1)) : [];
  return [error, ...nested, ...chain((error as { cause?: unknown }).cause, depth + 1)];
}

/** Why a request got no response: its kind, and the words for it, from whichever runtime's fetch failed. */
export function describeConnectionFailure(error: unknown): ConnectionFailure {
  const errors = chain(error);
  for (const e of errors) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && Object.hasOwn(BY_CODE, code)) return BY_CODE[code] as ConnectionFailure;
  }
  for (const e of errors) {
    const message = (e as { message?: unknown }).message;
    if (typeof message !== 'string') continue;
    const match = BY_MESSAGE.find(([pattern]) => pattern.test(message));
    if (match) return match[1];
  }
  return { kind: 'other', reason: ownWords(error) };
}

/** A failure no table knows, in the runtime's words: Node's "fetch failed" says nothing, its cause might. */
function ownWords(error: unknown): string {
  const inner = (error as { cause?: { message?: unknown } } | undefined)?.cause?.message;
  const message = (error as { message?: unknown } | undefined)?.message;
  if (typeof inner === 'string' && inner && message === 'fetch failed') return inner;
  return typeof message === 'string' && message ? message : String(error);
}

/** Why a request got no response, in words (`connection refused`), the same on Node, Deno and Bun. */
export function connectionFailure(error: unknown): string {
  return describeConnectionFailure(error).reason;
}
