import type { Request, Response } from 'express';

const STRIPPED_WHEN_NOT_MODIFIED = ['Content-Type', 'Content-Length', 'Transfer-Encoding'];

/**
 * What `res.set(headers).status(status).json(body)` sends (the body, `application/json; charset=utf-8`, Express's
 * ETag, 304 to a matching `If-None-Match`, no body to HEAD) written as one string. Express turns a body
 * it computes an ETag for into a Buffer, and Node then writes headers and body in two pieces: on a read
 * that cost about as much as the ETag itself.
 */
export function sendJson(
  req: Request,
  res: Response,
  response: { status: number; body: unknown; headers?: Record<string, string> },
): void {
  const { status, body, headers } = response;
  if (headers) res.set(headers);
  const json = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  const etagOf = req.app.get('etag fn') as ((body: string, encoding: string) => string) | undefined;
  if (etagOf && !res.hasHeader('ETag')) res.setHeader('ETag', etagOf(json, 'utf8'));
  if (req.fresh) {
    res.statusCode = 304;
    for (const name of STRIPPED_WHEN_NOT_MODIFIED) res.removeHeader(name);
    res.end();
    return;
  }
  res.setHeader('Content-Length', Buffer.byteLength(json));
  if (req.method === 'HEAD') res.end();
  else res.end(json);
}
