import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type CutMode = 'before-server' | 'after-server';

export interface CutProxy {
  /** The server's base URL through the proxy (`http://127.0.0.1:<proxy port>/api/v1`). */
  baseUrl: string;
  /** POSTs that reached the server through the proxy so far. */
  readonly postsForwarded: number;
  /**
   * Lets the next `n` POSTs through, then cuts the network at the one after: `before-server` resets the
   * connection before the server sees it; `after-server` lets the server answer (and commit) and resets
   * the connection instead of passing the response on. Every request after the cut is reset too.
   */
  cutAfterPosts(n: number, mode: CutMode): void;
  /** Resets every request from now on (the server never sees them). */
  cut(): void;
  /** Refuses new connections (nothing listens on the port) and resets the open ones. */
  down(): Promise<void>;
  /** The network is back: listening again on the same port, passing everything through. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** An HTTP proxy in front of a real test server whose network a test can cut at an exact request. */
export async function startCutProxy(targetBaseUrl: string): Promise<CutProxy> {
  const target = new URL(targetBaseUrl);
  const sockets = new Set<Socket>();
  let cutAt: { after: number; mode: CutMode } | undefined;
  let isCut = false;
  let posts = 0;
  let port = 0;

  const forward = (req: IncomingMessage, res: ServerResponse, dropResponse: boolean) => {
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (up) => {
        if (dropResponse) {
          // The server has answered (its write committed); the client never hears of it.
          up.resume();
          up.on('end', () => req.socket.destroy());
          return;
        }
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => req.socket.destroy());
    req.pipe(upstream);
  };

  const server = createServer((req, res) => {
    if (isCut) return void req.socket.destroy();
    if (req.method === 'POST' && cutAt) {
      if (posts === cutAt.after) {
        isCut = true;
        if (cutAt.mode === 'before-server') return void req.socket.destroy();
        posts++;
        return forward(req, res, true);
      }
      posts++;
    } else if (req.method === 'POST') posts++;
    forward(req, res, false);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  await listen();

  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname.replace(/\/+$/, '')}`,
    get postsForwarded() {
      return posts;
    },
    cutAfterPosts(n, mode) {
      cutAt = { after: posts + n, mode };
    },
    cut() {
      isCut = true;
    },
    async down() {
      isCut = true;
      if (server.listening) await stop();
    },
    async restore() {
      cutAt = undefined;
      isCut = false;
      if (!server.listening) await listen();
    },
    async close() {
      if (server.listening) await stop();
    },
  };
}
