import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST the receiver got, body as the raw text that was signed. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** What the receiver answered (0 when it held the request past the sender's timeout). */
  answered: number;
}

/** How the receiver answers one request: a status, after an optional delay. */
export type Behaviour = (request: { path: string; nth: number; eventId: string }) => {
  status: number;
  delayMs?: number;
};

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>` */
  url: string;
  received: Received[];
  /** Sets the answer for requests to `path` (a 200 by default). */
  on(path: string, behaviour: Behaviour): void;
  close(): Promise<void>;
}

/** A loopback receiver (node:http) that records every delivery and answers per path as told. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const behaviours = new Map<string, Behaviour>();
  /** Requests seen per path and event, so a behaviour can fail the first tries of each event. */
  const seen = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const eventId = String(req.headers['vsf-event-id'] ?? '');
      const nth = (seen.get(`${path} ${eventId}`) ?? 0) + 1;
      seen.set(`${path} ${eventId}`, nth);
      const answer: Behaviour = behaviours.get(path) ?? (() => ({ status: 200 }));
      const { status, delayMs = 0 } = answer({ path, nth, eventId });
      const entry: Received = { path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answered: 0 };
      received.push(entry);
      setTimeout(() => {
        if (res.destroyed) return;
        entry.answered = status;
        res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    on: (path, behaviour) => behaviours.set(path, behaviour),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Checks `Vsf-Signature` as a receiver would: HMAC-SHA256 of `<t>.<body>` keyed with the secret's bytes. */
export function signatureValid(header: string | undefined, body: string, secret: string): boolean {
  const t = /(?:^|,)t=(\d+)/.exec(header ?? '')?.[1];
  const v1 = /(?:^|,)v1=([0-9a-f]{64})/.exec(header ?? '')?.[1];
  if (!t || !v1) return false;
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${t}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(v1, 'hex'));
}
