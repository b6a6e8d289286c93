import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';

/** Requests whose body a handler has started to read: their own timeouts apply (read-body-bytes.ts). */
const claimed = new WeakSet<IncomingMessage>();
/** Responses to `Expect: 100-continue` whose `100 Continue` waits until a handler reads the body. */
const continueHeld = new WeakSet<ServerResponse>();

/** Whether the request says a body follows. */
export function declaresBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/**
 * Answers `Expect: 100-continue` only once a handler starts reading the body, after authentication, scopes
 * and the declared size were checked: a refused upload gets its 401, 403 or 413 before the client sends
 * megabytes (Node otherwise sends `100 Continue` at once).
 */
export function holdContinue(server: Server): void {
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    continueHeld.add(res);
    server.emit('request', req, res);
  });
}

/** Marks the body as being read, and lets a client waiting for `100 Continue` send it. */
export function claimBody(req: Request): void {
  claimed.add(req);
  const res = req.res;
  if (res && continueHeld.delete(res) && !res.headersSent) res.writeContinue();
}

/**
 * Cuts off a body nobody claims within `unclaimedMs` of the request's arrival. Only requests that declare a
 * body pay for a timer.
 */
export function guardUnclaimedBodies(unclaimedMs: number) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (declaresBody(req)) {
      const timer = setTimeout(() => {
        if (!req.complete && !claimed.has(req)) req.socket.destroy();
      }, unclaimedMs);
      timer.unref();
      req.once('end', () => clearTimeout(timer));
    }
    next();
  };
}
