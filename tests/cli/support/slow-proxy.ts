import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type LinkMode = { kind: 'pass' } | { kind: 'black-hole' } | { kind: 'slow'; bytesPerSecond: number };

export interface SlowProxy {
  /** The server's API root through the proxy. */
  baseUrl: string;
  /** How the link behaves for requests that arrive from now on. */
  set(mode: LinkMode): void;
  /** Photo uploads the server answered through the proxy, in the order their answers came. */
  readonly photosAnswered: string[];
  /** The most photo uploads that were on their way through the proxy at one time. */
  readonly mostPhotosAtOnce: number;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A link between the built `vsf` and a real server: passing everything, a black hole (connections are
 * accepted, nothing is read or answered, as a dead Wi-Fi behind a captive gateway), or a slow uplink that
 * reads request bodies at `bytesPerSecond` (the client's writes wait on TCP, as on a poor mobile link).
 */
export async function startSlowProxy(targetBaseUrl: string): Promise<SlowProxy> {
  const target = new URL(targetBaseUrl);
  const sockets = new Set<Socket>();
  const photosAnswered: string[] = [];
  let mode: LinkMode = { kind: 'pass' };
  let photosAtOnce = 0;
  let mostPhotosAtOnce = 0;
  const isPhoto = (req: IncomingMessage) => req.method === 'POST' && /\/photos(\?|$)/.test(req.url ?? '');

  const forward = async (req: IncomingMessage, res: ServerResponse, link: LinkMode) => {
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (up) => {
        if (isPhoto(req)) {
          photosAnswered.push(new URL(req.url ?? '/', 'http://x').searchParams.get('filename') ?? '?');
          photosAtOnce--;
        }
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.socket?.destroy());
    if (isPhoto(req)) mostPhotosAtOnce = Math.max(mostPhotosAtOnce, ++photosAtOnce);
    if (link.kind !== 'slow') return void req.pipe(upstream);
    // A tenth of a second's worth at a time: the client sees its bytes leave at the link's pace.
    const slice = Math.max(1, Math.floor(link.bytesPerSecond / 10));
    for await (const chunk of req as AsyncIterable<Buffer>) {
      for (let at = 0; at < chunk.length; at += slice) {
        upstream.write(chunk.subarray(at, at + slice));
        await sleep(100);
      }
    }
    upstream.end();
  };

  const server = createServer((req, res) => {
    const link = mode;
    // Accepted, never read, never answered: only the client's own timeout ends it.
    if (link.kind === 'black-hole') return void req.pause();
    forward(req, res, link).catch(() => res.socket?.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname.replace(/\/+$/, '')}`,
    set(next) {
      mode = next;
      mostPhotosAtOnce = 0;
    },
    photosAnswered,
    get mostPhotosAtOnce() {
      return mostPhotosAtOnce;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
