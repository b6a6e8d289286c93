import type { Readable } from 'node:stream';
import type { Request } from 'express';
import { ApiHttpError } from '../errors/api-http-error.js';
import { claimBody } from './body-guard.js';
import type { BodyTimeouts } from './body-timeouts.js';
import { RequestAborted } from './request-aborted.js';

export interface ReadBodyOptions {
  /** Most bytes kept (after decoding); past it, `tooLarge` (with the declared size when `Content-Length` says so). */
  limit: number;
  tooLarge: (declared?: number) => ApiHttpError;
  timeouts: BodyTimeouts;
  /** Decodes a `Content-Encoding`; the limit applies to its output. */
  decoder?: (Readable & NodeJS.WritableStream) | undefined;
  /** The error for bytes the decoder cannot decode. */
  decodeFailed?: () => ApiHttpError;
}

const timedOut = (why: string) =>
  new ApiHttpError(
    408,
    'request_timeout',
    `The request body ${why}; send the request again (with the same Idempotency-Key, so nothing is written twice)`,
  );

/**
 * Reads a request's body, which a handler calls only after the request passed authentication and scopes.
 * Given up with a 408 after `idleMs` without a byte or `deadlineMs` in all (the connection then closes: the
 * rest of the body cannot be told from a next request); past `limit`, by its `Content-Length` or as it
 * arrives, a 413; what is still arriving is read and dropped until the 413 is sent, and Node then closes the
 * connection (request-bodies.test.ts).
 */
export async function readBodyBytes(req: Request, options: ReadBodyOptions): Promise<Buffer> {
  const { limit, decoder, timeouts } = options;
  // Refused on its word, before a client waiting for `100 Continue` is told to send it.
  const declared = Number(req.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw options.tooLarge(declared);
  }
  claimBody(req);
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const source: Readable = decoder ? req.pipe(decoder) : req;
    const settle = () => {
      settled = true;
      clearTimeout(idle);
      clearTimeout(deadline);
      req.off('data', onProgress);
      req.off('close', onClose);
      if (decoder) {
        req.unpipe(decoder);
        decoder.destroy();
      }
    };
    const fail = (error: Error) => {
      if (settled) return;
      settle();
      if (error instanceof ApiHttpError && error.status === 408) req.res?.setHeader('Connection', 'close');
      // Past the limit the client is still sending: read the rest and drop it, so it reads the 413.
      else req.resume();
      reject(error);
    };
    const idle = setTimeout(
      () => fail(timedOut(`stopped arriving (no bytes for ${duration(timeouts.idleMs)})`)),
      timeouts.idleMs,
    );
    const deadline = setTimeout(
      () => fail(timedOut(`took longer than ${duration(timeouts.deadlineMs)} in all`)),
      timeouts.deadlineMs,
    );
    const onProgress = () => idle.refresh();
    const onClose = () => {
      if (!req.complete) fail(new RequestAborted());
    };
    req.on('data', onProgress);
    req.on('close', onClose);
    source.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) fail(options.tooLarge());
      else chunks.push(chunk);
    });
    source.on('end', () => {
      if (settled) return;
      settle();
      resolve(Buffer.concat(chunks, size));
    });
    // A reset connection errors the request stream; only a decoder's own error means the bytes were wrong.
    const gone = () => (req.destroyed && !req.complete ? new RequestAborted() : undefined);
    source.on('error', () => fail(gone() ?? (decoder && options.decodeFailed?.()) ?? readFailed()));
    if (decoder) req.on('error', () => fail(gone() ?? readFailed()));
  });
}

/** `60 s`, `15 minutes`: a limit as an operator would write it. */
const duration = (ms: number) => (ms >= 120_000 && ms % 60_000 === 0 ? `${ms / 60_000} minutes` : `${ms / 1000} s`);

const readFailed = () => new ApiHttpError(400, 'invalid_json', 'Request body could not be read');
