import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { type RedactOptions, redactUrl } from '../runtime/log-redaction.js';
import { assignRequestId } from './request-id.js';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request's id: the client's sane `X-Request-Id`, or a new one (echoed in the response). */
    id?: string;
    /** A logger whose lines carry the request (and, once authenticated, its team and key prefix). */
    log?: Logger;
  }
}

/** What authentication learns about the caller, added to every line of the request. */
const callers = new WeakMap<IncomingMessage, Record<string, unknown>>();

/** Adds `fields` to the request's completion line and to its logger's later lines. */
export function bindRequestLog(req: IncomingMessage, fields: Record<string, unknown>): void {
  callers.set(req, { ...callers.get(req), ...fields });
}

/**
 * One line per request when its response ends (`request completed`, or `request aborted` when the client
 * left first): id, method, URL with every credential redacted, status, the caller once known, and the
 * time taken. `req.log` is built only when a handler logs something of its own: a child logger per
 * request cost more than the rest of a read's logging.
 */
export function requestLog(logger: Logger, redaction: RedactOptions) {
  // The completion line's own fields (id, method, redacted URL, status, time) are none of the paths the
  // logger redacts, and pino's path redaction copies each logged object: a read paid for it on every
  // request. The finished line is still scrubbed of anything key-shaped (logger.ts), and a caller field a
  // redacted path could name sends the line through the redacting logger (redactedFieldIn).
  const completions = logger.child({}, { redact: [] });
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    const id = assignRequestId(req, res);
    req.id = id;
    // Redacted once, for the completion line and a handler's logger alike.
    let described: Record<string, unknown> | undefined;
    const describe = () =>
      (described ??= { id, method: req.method, url: redactUrl(req.originalUrl ?? req.url, redaction) });
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', {
      configurable: true,
      enumerable: false,
      get: () => {
        child ??= logger.child({ req: describe(), ...callers.get(req) });
        return child;
      },
    });
    res.once('close', () => logCompletion(logger, completions, req, res, describe(), performance.now() - started));
    next();
  };
}

function logCompletion(
  logger: Logger,
  completions: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  described: Record<string, unknown>,
  elapsedMs: number,
): void {
  const level = res.statusCode >= 500 ? 'error' : res.writableFinished ? 'info' : 'warn';
  if (!logger.isLevelEnabled(level)) return;
  const caller = callers.get(req);
  (caller && redactedFieldIn(caller) ? logger : completions)[level](
    {
      req: described,
      ...caller,
      // An aborted request may have had no answer: its status would be Express's default, not one sent.
      ...(res.headersSent ? { res: { statusCode: res.statusCode } } : {}),
      responseTime: Math.round(elapsedMs),
    },
    res.writableFinished ? 'request completed' : 'request aborted',
  );
}

/**
 * Whether a caller field could be one the logger redacts by path (`key`, `*.key`, `req.headers…`,
 * `res.headers…`: logger.ts): a field named so, or any object, whose insides are not looked at here.
 */
function redactedFieldIn(fields: Record<string, unknown>): boolean {
  for (const name in fields) {
    if (name === 'key' || name === 'req' || name === 'res') return true;
    const value = fields[name];
    if (typeof value === 'object' && value !== null) return true;
  }
  return false;
}
