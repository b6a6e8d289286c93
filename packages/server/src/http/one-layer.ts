import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Synchronous middlewares run in turn inside one Express layer, as `app.use(a, b, c)` would run them in
 * three: each layer Express walks through costs every request its matching and bookkeeping (the router's
 * `next` was the largest allocator of a read). An error passed to `next` skips the rest, as in Express.
 */
export function oneLayer(...handlers: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    let index = 0;
    const step = (error?: unknown) => {
      const handler = handlers[index++];
      if (error !== undefined || !handler) {
        next(error);
        return;
      }
      try {
        handler(req, res, step);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}
