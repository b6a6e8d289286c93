import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  /** Path and query as the client sent them, e.g. `/bucket/key?partNumber=2&uploadId=…`. */
  url: string;
}

/** Decides how the proxy treats one request: pass it on, fail it with an S3 error, or never answer. */
export type FaultRule = (req: ProxiedRequest) => 'pass' | 'hang' | { status: number; code: string } | undefined;

export interface S3FaultProxy {
  endpoint: string;
  /** Every request that reached the proxy, in order. */
  requests: ProxiedRequest[];
  /** Replaces the rule; `undefined` passes everything on. */
  setRule(rule: FaultRule | undefined): void;
  close(): Promise<void>;
}

/**
 * A loopback proxy in front of a real S3-compatible server that injects the failures S3 really produces
 * (503 SlowDown, 500 InternalError, a silent socket), so the store's retries, aborts and error mapping are
 * tested against the real protocol. The Host header passes unchanged, so request signatures still verify.
 */
export async function startS3FaultProxy(target: string): Promise<S3FaultProxy> {
  const targetUrl = new URL(target);
  const requests: ProxiedRequest[] = [];
  let rule: FaultRule | undefined;
  const hung = new Set<ServerResponse>();

  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const upstream = request(
      { host: targetUrl.hostname, port: targetUrl.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  };

  const server = createServer((req, res) => {
    const seen = { method: req.method ?? 'GET', url: req.url ?? '/' };
    requests.push(seen);
    const decision = rule?.(seen) ?? 'pass';
    if (decision === 'pass') return forward(req, res);
    if (decision === 'hang') {
      hung.add(res);
      req.resume();
      return;
    }
    // Drain the body first: S3 reads the request before it answers, and so do the SDK's retries expect.
    req.resume();
    req.on('end', () => {
      res.writeHead(decision.status, { 'content-type': 'application/xml' });
      res.end(
        `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${decision.code}</Code><Message>injected by the test proxy</Message></Error>`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    setRule(next) {
      rule = next;
    },
    close: () =>
      new Promise((resolve) => {
        for (const res of hung) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
