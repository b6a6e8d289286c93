import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** mulberry32: a small seeded PRNG, so a failing run can be repeated with the seed it printed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type FaultKind =
  | 'status-500'
  | 'status-502'
  | 'status-503'
  | 'status-429'
  | 'reset-before-response'
  | 'reset-mid-body'
  | 'delay'
  | 'stall';

export interface ChaosOptions {
  /** `http://127.0.0.1:<port>` of the real server. */
  target: string;
  seed: number;
  /** Share of eligible requests that get a fault (0–1). */
  faultRate: number;
  /** Only requests this returns true for are eligible (the rest pass through untouched). */
  eligible?: (method: string, path: string) => boolean;
  /** Longest delay before a response is passed on, for `delay` faults. */
  maxDelayMs?: number;
  /** Relative weight of each fault; a kind left out is never injected. */
  weights?: Partial<Record<FaultKind, number>>;
  /**
   * Faults for the first eligible requests, in this order, before any random ones: a scripted outage
   * (`['reset-before-response', 'status-503', 'status-429']` is three failures in a row).
   */
  script?: FaultKind[];
  /** `Retry-After` of injected 429s and 503s, in seconds; default a random 0 or 1. */
  retryAfterSeconds?: number;
}

export interface ChaosStats {
  requests: number;
  faults: number;
  byKind: Record<FaultKind, number>;
}

export interface ChaosProxy {
  /** The proxy's origin; put the server's paths after it. */
  origin: string;
  stats: ChaosStats;
  close(): Promise<void>;
}

const DEFAULT_WEIGHTS: Record<FaultKind, number> = {
  'status-500': 2,
  'status-502': 2,
  'status-503': 2,
  'status-429': 2,
  'reset-before-response': 2,
  'reset-mid-body': 2,
  delay: 3,
  stall: 0,
};

/**
 * A fault-injecting HTTP proxy for tests: between a client and a real server it answers some requests
 * with 5xx or 429 (+ `Retry-After` of 0–1 s, as an overloaded server or gateway would), resets the
 * connection before or in the middle of the response, delays it, or never answers (`stall`, for client
 * timeouts). Every other request is passed through byte for byte, including the server's `Date`.
 */
export async function startChaosProxy(options: ChaosOptions): Promise<ChaosProxy> {
  const random = seededRandom(options.seed);
  const target = new URL(options.target);
  const weights = { ...DEFAULT_WEIGHTS, ...options.weights };
  const kinds = (Object.keys(weights) as FaultKind[]).filter((k) => weights[k] > 0);
  const totalWeight = kinds.reduce((sum, k) => sum + weights[k], 0);
  const maxDelayMs = options.maxDelayMs ?? 300;
  const stats: ChaosStats = {
    requests: 0,
    faults: 0,
    byKind: Object.fromEntries(Object.keys(DEFAULT_WEIGHTS).map((k) => [k, 0])) as Record<FaultKind, number>,
  };
  const sockets = new Set<Socket>();

  const script = [...(options.script ?? [])];
  const pickFault = (): FaultKind | undefined => {
    if (script.length > 0) return script.shift();
    if (kinds.length === 0 || random() >= options.faultRate) return undefined;
    let roll = random() * totalWeight;
    for (const kind of kinds) {
      roll -= weights[kind];
      if (roll < 0) return kind;
    }
    return kinds[kinds.length - 1];
  };

  const forward = (req: IncomingMessage, res: ServerResponse, fault: FaultKind | undefined) => {
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (up) => {
        if (fault === 'reset-mid-body') {
          // Headers and part of the body go out, then the connection dies as a crashed proxy's would.
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.once('data', (chunk: Buffer) => {
            res.write(chunk.subarray(0, Math.max(1, Math.floor(chunk.length / 2))));
            up.destroy();
            setImmediate(() => res.socket?.destroy());
          });
          up.once('end', () => res.socket?.destroy());
          return;
        }
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.socket?.destroy());
    req.pipe(upstream);
  };

  const server: Server = createServer((req, res) => {
    stats.requests++;
    const path = req.url ?? '/';
    const fault = options.eligible && !options.eligible(req.method ?? 'GET', path) ? undefined : pickFault();
    if (fault) {
      stats.faults++;
      stats.byKind[fault]++;
    }
    switch (fault) {
      case 'status-500':
      case 'status-502':
      case 'status-503':
      case 'status-429': {
        const status = Number(fault.slice('status-'.length));
        // 500 and 502 carry no Retry-After, so the client's own backoff is exercised too.
        const seconds = options.retryAfterSeconds ?? Math.floor(random() * 2);
        const retryAfter = status === 429 || status === 503 ? { 'retry-after': String(seconds) } : {};
        req.resume();
        res.writeHead(status, { 'content-type': 'application/json', ...retryAfter });
        res.end(JSON.stringify({ error: `chaos proxy: injected ${status}`, code: 'chaos', details: null }));
        return;
      }
      case 'reset-before-response':
        req.socket.destroy();
        return;
      case 'stall':
        // Never answers; the client's timeout has to give up. The socket is closed with the proxy.
        req.resume();
        return;
      case 'delay':
        setTimeout(() => forward(req, res, undefined), Math.floor(random() * maxDelayMs));
        return;
      default:
        forward(req, res, fault);
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
