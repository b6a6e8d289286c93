import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface BenchReceiver {
  /** `http://127.0.0.1:<port>`: the reference server delivers to loopback (VSF_WEBHOOK_ALLOW_HTTP_LOOPBACK). */
  url: string;
  /** Resolves with `performance.now()` when an event of `recordId` arrives at a healthy path. */
  arrival(recordId: string): Promise<number>;
  /** Deliveries that reached a path under `/dead/` (held unanswered). */
  readonly held: number;
  close(): Promise<void>;
}

/**
 * A webhook receiver in the benchmark's process: paths under `/dead/` never answer (a receiver that hangs,
 * holding the dispatcher's attempt until its timeout); every other path answers 200 at once and notes when
 * each event's record arrived.
 */
export async function startBenchReceiver(): Promise<BenchReceiver> {
  const arrived = new Map<string, number>();
  const waiting = new Map<string, (at: number) => void>();
  const sockets = new Set<Socket>();
  let held = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith('/dead/')) {
      held++;
      req.resume();
      return; // never answered
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      res.writeHead(200).end();
      const { recordId } = JSON.parse(Buffer.concat(chunks).toString()) as { recordId: string };
      const wake = waiting.get(recordId);
      if (wake) {
        waiting.delete(recordId);
        wake(at);
      } else arrived.set(recordId, at);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrival(recordId) {
      const at = arrived.get(recordId);
      if (at !== undefined) {
        arrived.delete(recordId);
        return Promise.resolve(at);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no delivery of ${recordId} within 60 s`)), 60_000);
        waiting.set(recordId, (when) => {
          clearTimeout(timer);
          resolve(when);
        });
      });
    },
    get held() {
      return held;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
