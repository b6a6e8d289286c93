import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { describe, expect, it } from 'vitest';
import { oneLayer } from './one-layer.js';

/** An app whose only middleware layer is `oneLayer(...)`, answering what ran, and a way to call it. */
async function call(path: string, ...handlers: Parameters<typeof oneLayer>) {
  const app = express();
  app.use(oneLayer(...handlers));
  app.get('/ran', (req, res) => {
    res.json({ ran: (req as Request & { ran?: string[] }).ran });
  });
  app.use((error: Error, _req: Request, res: Response, _next: NextFunction) => {
    res.status(500).json({ error: error.message });
  });
  const layers = (app as unknown as { router: { stack: unknown[] } }).router.stack.length;
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
    return { status: response.status, body: await response.json(), layers };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

const mark = (name: string) => (req: Request, _res: Response, next: NextFunction) => {
  const marked = req as Request & { ran?: string[] };
  marked.ran = [...(marked.ran ?? []), name];
  next();
};

describe('oneLayer', () => {
  it('runs the middlewares in turn inside a single layer', async () => {
    const { status, body, layers } = await call('/ran', mark('a'), mark('b'), mark('c'));
    expect(status).toBe(200);
    expect(body).toEqual({ ran: ['a', 'b', 'c'] });
    // The middleware, the route and the error handler: three layers, not five.
    expect(layers).toBe(3);
  });

  it('skips the rest on an error passed to next or thrown, and hands it to the error handler', async () => {
    const refuse = (_req: Request, _res: Response, next: NextFunction) => next(new Error('refused'));
    const unreachable = () => {
      throw new Error('ran after the error');
    };
    expect(await call('/ran', mark('a'), refuse, unreachable)).toMatchObject({
      status: 500,
      body: { error: 'refused' },
    });
    const boom = () => {
      throw new Error('thrown');
    };
    expect(await call('/ran', boom, unreachable)).toMatchObject({ status: 500, body: { error: 'thrown' } });
  });
});
