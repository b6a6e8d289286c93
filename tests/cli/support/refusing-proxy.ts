import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RefusingProxy {
  /** The proxied API root, `http://127.0.0.1:<port>/api/v1`. */
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Forwards every request to the real test server, except photo uploads (JSON or raw bytes) whose `filename` is in `refuse`:
 * those get the 400 the server gives a bad field, with its details. A server refusal the CLI cannot avoid
 * by sniffing, to see how it reports one failure among good uploads.
 */
export async function startRefusingProxy(target: string, refuse: string[]): Promise<RefusingProxy> {
  const targetOrigin = new URL(target).origin;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', targetOrigin);
    if (req.method === 'POST' && /\/cars\/[^/]+\/photos$/.test(url.pathname)) {
      // Raw bytes (the binary-upload extension) name the file in the query, JSON in the body.
      const filename =
        url.searchParams.get('filename') ?? (JSON.parse(body.toString('utf8')) as { filename?: string }).filename;
      if (filename && refuse.includes(filename)) {
        // Refused as the server refuses: its errors announce its extensions too.
        res.writeHead(400, {
          'content-type': 'application/json',
          'x-request-id': 'proxy-refusal',
          'vsf-extensions': 'binary-upload',
        });
        res.end(
          JSON.stringify({
            error: 'Validation failed',
            code: 'validation_error',
            details: [{ path: 'contentType', message: 'Declared image/png but the bytes are image/gif' }],
          }),
        );
        return;
      }
    }
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k)),
    ) as Record<string, string>;
    const upstream = await fetch(`${targetOrigin}${req.url}`, {
      method: req.method ?? 'GET',
      headers,
      ...(body.length > 0 ? { body } : {}),
    });
    const out = Buffer.from(await upstream.arrayBuffer());
    const outHeaders: Record<string, string> = {};
    upstream.headers.forEach((value, key) => {
      if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(key))
        outHeaders[key] = value;
    });
    res.writeHead(upstream.status, outHeaders);
    res.end(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${new URL(target).pathname}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
