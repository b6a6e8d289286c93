import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { describe, expect, it } from 'vitest';
import { ApiHttpError } from '../errors/api-http-error.js';
import { apiOnlyApp } from '../http/api-only-app.js';
import { DEFAULT_BODY_TIMEOUTS } from '../http/body-timeouts.js';
import { readJsonBody } from '../http/read-json-body.js';
import { sendJson } from '../http/send-json.js';
import { exchange, type InProcessRequest } from './in-process-exchange.js';

const get = (url: string, over: Partial<InProcessRequest> = {}): InProcessRequest => ({
  method: 'GET',
  url,
  headers: { host: 'example.test', accept: 'application/json' },
  remoteAddress: '203.0.113.9',
  ...over,
});

/** The API's routers as the connector runs them: the API's 404 and error handler after them. */
function app() {
  const router = express.Router();
  router.get('/things/:id', (req: Request, res: Response) => {
    res.setHeader('X-Thing', req.params.id as string);
    sendJson(req, res, { status: 201, body: { data: { id: req.params.id, ip: req.ip, query: req.query } } });
  });
  router.post('/things', async (req: Request, res: Response) => {
    const body = await readJsonBody(req, DEFAULT_BODY_TIMEOUTS);
    res.status(200).json({ received: body, length: req.get('content-length') });
  });
  router.get('/throws', () => {
    throw new Error('a bug mid-handler');
  });
  router.get('/refuses', async () => {
    await Promise.resolve();
    throw new ApiHttpError(409, 'conflict', 'Taken', { field: 'vin' });
  });
  router.get('/bytes', (_req: Request, res: Response) => {
    res.set({ 'Content-Type': 'image/png', 'Content-Length': '3' }).status(200);
    res.end(Buffer.from([1, 2, 3]));
  });
  router.get('/logs', (req: Request, res: Response) => {
    req.log?.info('from the call');
    res.json({ logged: true });
  });
  router.get('/ends-twice', (_req: Request, res: Response) => {
    res.json({ first: true });
    res.end('ignored');
  });
  return apiOnlyApp([['/api/v1', router]]);
}

describe('exchange (a request and response in this process)', () => {
  const api = app();

  it('carries the status, the headers and the body the application wrote, and the request as sent', async () => {
    const answer = await exchange(api, get('/api/v1/things/t-1?limit=2'));
    expect(answer.status).toBe(201);
    expect(answer.headers['x-thing']).toBe('t-1');
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers.etag).toBeUndefined();
    // The JSON as written, one string: no bytes to decode.
    expect(answer.body).toBe(JSON.stringify({ data: { id: 't-1', ip: '203.0.113.9', query: { limit: '2' } } }));
  });

  it('turns an error thrown mid-handler into the API’s error body', async () => {
    const bug = await exchange(api, get('/api/v1/throws'));
    expect(bug.status).toBe(500);
    expect(JSON.parse(bug.body as string)).toMatchObject({ error: 'Internal server error', code: 'internal_error' });
    const refusal = await exchange(api, get('/api/v1/refuses'));
    expect(refusal.status).toBe(409);
    expect(JSON.parse(refusal.body as string)).toMatchObject({ error: 'Taken', code: 'conflict' });
    const unknown = await exchange(api, get('/api/v1/nothing-here'));
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body as string)).toMatchObject({ code: 'not_found' });
  });

  it('sends a body as a client would, with its length in bytes, for the API’s own body reader', async () => {
    const answer = await exchange(api, {
      ...get('/api/v1/things'),
      method: 'POST',
      headers: { host: 'example.test', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Zoë' }),
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body as string)).toEqual({ received: { name: 'Zoë' }, length: '15' });
  });

  it('keeps bytes as bytes', async () => {
    const answer = await exchange(api, get('/api/v1/bytes'));
    expect(answer.headers['content-type']).toBe('image/png');
    expect(Buffer.isBuffer(answer.body)).toBe(true);
    expect([...(answer.body as Buffer)]).toEqual([1, 2, 3]);
  });

  it('logs with the logger of the request it runs under, and only when something is logged', async () => {
    const lines: string[] = [];
    let built = 0;
    const outer = {
      get log() {
        built++;
        return { info: (message: string) => lines.push(message) } as unknown as Logger;
      },
    } as unknown as IncomingMessage;
    await exchange(api, get('/api/v1/things/t-2', { logUnder: outer }));
    expect(built).toBe(0);
    const answer = await exchange(api, get('/api/v1/logs', { logUnder: outer }));
    expect(answer.status).toBe(200);
    expect(lines).toEqual(['from the call']);
  });

  it('answers once: what is written after the end is dropped', async () => {
    const answer = await exchange(api, get('/api/v1/ends-twice'));
    expect(JSON.parse(answer.body as string)).toEqual({ first: true });
  });

  it('lets `prepare` see the request before the application, and a plain listener answer with writeHead', async () => {
    const seen: string[] = [];
    const listener = (req: IncomingMessage, res: ServerResponse) => {
      seen.push(String((req as IncomingMessage & { marked?: string }).marked));
      res.writeHead(202, { 'Content-Type': 'text/plain', 'X-Seen': req.socket.remoteAddress ?? '' });
      res.write('part one, ');
      res.end('part two');
    };
    const answer = await exchange(listener, get('/anything'), (req) => {
      (req as IncomingMessage & { marked?: string }).marked = 'yes';
    });
    expect(seen).toEqual(['yes']);
    expect(answer.status).toBe(202);
    expect(answer.headers['x-seen']).toBe('203.0.113.9');
    expect(Buffer.from(answer.body).toString()).toBe('part one, part two');
  });

  it('lets a handler destroy the request, read or not, and still answer', async () => {
    const aborted: boolean[] = [];
    const listener = (req: IncomingMessage, res: ServerResponse) => {
      req.destroy(new Error('not wanted'));
      req.once('close', () => {
        aborted.push(req.aborted, req.socket.destroyed);
        res.end('answered');
      });
    };
    const answer = await exchange(listener, { ...get('/anything'), method: 'POST', body: '{"a":1}' });
    expect(String(answer.body)).toBe('answered');
    expect(aborted).toEqual([true, true]);
  });

  it('rejects when the response is dropped without an answer', async () => {
    const listener = (_req: IncomingMessage, res: ServerResponse) => {
      res.destroy();
    };
    await expect(exchange(listener, get('/anything'))).rejects.toThrow(/dropped the response/);
  });
});
