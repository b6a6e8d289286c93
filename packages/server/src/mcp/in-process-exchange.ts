import { IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Express } from 'express';
import type { RequestListener } from '../http/api-only-app.js';

/** A request to run in this process: what a client would have sent. */
export interface InProcessRequest {
  method: string;
  url: string;
  /** Lower-case names, as Node gives a request's headers. */
  headers: Record<string, string>;
  /** The client's address, as the request's socket shows it (failed-auth counting, `req.ip`). */
  remoteAddress: string;
  /** Sent with its `Content-Length` (added unless given). */
  body?: string | undefined;
  /** The request whose logger this one logs with (`req.log`, read only when something is logged). */
  logUnder?: IncomingMessage | undefined;
}

/** What the application answered: the status, the headers it set, and the body it wrote. */
export interface InProcessResponse {
  status: number;
  headers: OutgoingHttpHeaders;
  /** One string when it wrote one string (a JSON body: no copy into bytes and back), else the bytes. */
  body: string | Buffer;
}

type Settle = {
  resolve: (response: InProcessResponse) => void;
  reject: (error: Error) => void;
};

type Chunk = string | Buffer | Uint8Array;
type Callback = (error?: Error | null) => void;

/** The socket a request shows: its peer's address, nothing to read, nothing to write. */
interface InProcessSocket {
  remoteAddress: string;
  readable: false;
  writable: false;
  destroyed: boolean;
  destroy(): void;
}

function socketOf(remoteAddress: string): InProcessSocket {
  return {
    remoteAddress,
    readable: false,
    writable: false,
    destroyed: false,
    destroy() {
      this.destroyed = true;
    },
  };
}

function chunkPairs(flat: OutgoingHttpHeader[]): OutgoingHttpHeader[][] {
  const pairs: OutgoingHttpHeader[][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2)
    pairs.push([flat[i] as OutgoingHttpHeader, flat[i + 1] as OutgoingHttpHeader]);
  return pairs;
}

const asBuffer = (chunk: Chunk, encoding?: BufferEncoding) =>
  typeof chunk === 'string' ? Buffer.from(chunk, encoding) : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);

/**
 * A request Node's own `IncomingMessage` (a readable stream: the body arrives as any body does, for the
 * same readers, limits and checks), built from the values instead of parsed from bytes.
 */
class InProcessIncoming extends IncomingMessage {
  logSource: IncomingMessage | undefined;

  constructor(request: InProcessRequest) {
    super(socketOf(request.remoteAddress) as never);
    this.method = request.method;
    this.url = request.url;
    this.headers = request.headers;
    this.httpVersionMajor = 1;
    this.httpVersionMinor = 1;
    this.httpVersion = '1.1';
    this.logSource = request.logUnder;
    if (request.body !== undefined) {
      const bytes = Buffer.from(request.body);
      // As a client would declare it: a body without a length or an encoding is no body (body-guard.ts).
      this.headers['content-length'] ??= String(bytes.length);
      this.push(bytes);
    }
    this.complete = true;
    this.push(null);
  }

  /**
   * As Node's own, without the connection to wait on and tear down (there is none): a request destroyed
   * before its body was read is aborted, and an error nobody listens for is not thrown.
   */
  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.readableEnded || !this.complete) {
      this.aborted = true;
      this.emit('aborted');
    }
    (this.socket as unknown as InProcessSocket).destroy();
    process.nextTick(callback, this.listenerCount('error') > 0 ? error : null);
  }
}
Object.defineProperty(InProcessIncoming.prototype, 'log', {
  configurable: true,
  enumerable: false,
  get(this: InProcessIncoming) {
    return this.logSource?.log;
  },
});

/**
 * Node's own `ServerResponse` (its header methods, status and the application's helpers work as on any
 * response), whose writes are kept instead of sent: no status line or header block to format and parse
 * back, no socket. The answer settles when the response ends.
 */
class InProcessOutgoing extends ServerResponse {
  settle: Settle | undefined;
  chunks: Chunk[] = [];
  encoding: BufferEncoding | undefined;
  sent = false;
  ended = false;

  override writeHead(
    status: number,
    reason?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
    headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
  ): this {
    const fields = typeof reason === 'string' ? headers : reason;
    if (typeof reason === 'string') this.statusMessage = reason;
    this.statusCode = status;
    if (Array.isArray(fields)) {
      // `[name, value, name, value]`, or `[[name, value], …]`, as Node takes them.
      const pairs = Array.isArray(fields[0]) ? (fields as unknown as OutgoingHttpHeader[][]) : chunkPairs(fields);
      for (const [name, value] of pairs)
        if (name !== undefined && value !== undefined) this.setHeader(String(name), value);
    } else if (fields) {
      for (const [name, value] of Object.entries(fields)) if (value !== undefined) this.setHeader(name, value);
    }
    this.sent = true;
    return this;
  }

  override write(chunk: Chunk, encoding?: BufferEncoding | Callback, callback?: Callback): boolean {
    const done = typeof encoding === 'function' ? encoding : callback;
    this.keep(chunk, typeof encoding === 'string' ? encoding : undefined);
    if (done) process.nextTick(done);
    return true;
  }

  override end(chunk?: Chunk | Callback, encoding?: BufferEncoding | Callback, callback?: Callback): this {
    if (this.ended) return this;
    let done = callback;
    if (typeof chunk === 'function') done = chunk;
    else if (typeof encoding === 'function') done = encoding;
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') {
      this.keep(chunk, typeof encoding === 'string' ? encoding : undefined);
    }
    this.sent = true;
    this.ended = true;
    this.finished = true;
    const settle = this.settle;
    this.settle = undefined;
    settle?.resolve({ status: this.statusCode, headers: this.getHeaders(), body: this.body() });
    process.nextTick(ended, this, done);
    return this;
  }

  override destroy(error?: Error): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    const settle = this.settle;
    this.settle = undefined;
    settle?.reject(error ?? new Error('The application dropped the response without answering'));
    process.nextTick(() => this.emit('close'));
    return this;
  }

  private keep(chunk: Chunk, encoding: BufferEncoding | undefined): void {
    if (this.ended) return;
    this.sent = true;
    this.chunks.push(chunk);
    if (encoding) this.encoding = encoding;
  }

  private body(): string | Buffer {
    const [first] = this.chunks;
    if (this.chunks.length === 0) return '';
    if (this.chunks.length === 1 && typeof first === 'string' && (!this.encoding || this.encoding.startsWith('utf')))
      return first;
    return Buffer.concat(this.chunks.map((chunk) => asBuffer(chunk, this.encoding)));
  }
}
Object.defineProperty(InProcessOutgoing.prototype, 'headersSent', {
  configurable: true,
  enumerable: false,
  get(this: InProcessOutgoing) {
    return this.sent;
  },
});

function ended(res: InProcessOutgoing, done: Callback | undefined): void {
  res.emit('finish');
  done?.();
  res.emit('close');
}

interface Dispatch {
  Request: typeof InProcessIncoming;
  Response: typeof InProcessOutgoing;
  run(req: InProcessIncoming, res: InProcessOutgoing, fail: (error: Error) => void): void;
}

const isExpressApp = (app: RequestListener): app is RequestListener & Express =>
  'router' in app && 'request' in app && 'response' in app;

/**
 * For an Express application, request and response classes whose prototypes sit below the application's
 * own (`app.request`, `app.response`: what Express would give them), and the application's router run
 * directly: Express's `handle` would swap those prototypes for its own, dropping the methods above.
 * What `handle` does besides is done here too (the two objects linked, `res.locals`); an error no
 * handler took fails the call (the API's own error handler answers every error it is given).
 */
function dispatchFor(app: RequestListener): Dispatch {
  if (!isExpressApp(app)) {
    return { Request: InProcessIncoming, Response: InProcessOutgoing, run: (req, res) => app(req, res) };
  }
  class Request extends InProcessIncoming {}
  class Response extends InProcessOutgoing {}
  // Own copies of the accessors defined above, which re-parenting the classes' prototypes would hide.
  for (const [own, base] of [
    [Request.prototype, InProcessIncoming.prototype],
    [Response.prototype, InProcessOutgoing.prototype],
  ] as const) {
    for (const name of Object.getOwnPropertyNames(base)) {
      if (name === 'constructor') continue;
      Object.defineProperty(own, name, Object.getOwnPropertyDescriptor(base, name) as PropertyDescriptor);
    }
  }
  Object.setPrototypeOf(Request.prototype, app.request);
  Object.setPrototypeOf(Response.prototype, app.response);
  // The `router` package's dispatch (Express 5's `app.router`), which the type declarations leave out.
  const router = app.router as unknown as {
    handle(req: Express['request'], res: Express['response'], done: (error?: unknown) => void): void;
  };
  return {
    Request,
    Response,
    run(req, res, fail) {
      const expressReq = req as unknown as Express['request'];
      const expressRes = res as unknown as Express['response'];
      expressReq.res = expressRes;
      expressRes.req = expressReq;
      expressRes.locals = Object.create(null);
      router.handle(expressReq, expressRes, (error?: unknown) => {
        if (res.ended) return;
        fail(error instanceof Error ? error : new Error(`No handler answered ${req.method} ${req.url}`));
      });
    },
  };
}

const dispatches = new WeakMap<RequestListener, Dispatch>();

/**
 * Runs one request through `app` in this process and resolves with its answer, as light-my-request's
 * `inject` would, without building a request and a response for a socket and reading them back.
 * `prepare` sees the request before the application does.
 */
export function exchange(
  app: RequestListener,
  request: InProcessRequest,
  prepare?: (req: IncomingMessage) => void,
): Promise<InProcessResponse> {
  let dispatch = dispatches.get(app);
  if (!dispatch) {
    dispatch = dispatchFor(app);
    dispatches.set(app, dispatch);
  }
  const { Request, Response, run } = dispatch;
  return new Promise<InProcessResponse>((resolve, reject) => {
    const req = new Request(request);
    const res = new Response(req);
    res.settle = { resolve, reject };
    prepare?.(req);
    const fail = (error: Error) => {
      res.settle = undefined;
      reject(error);
    };
    try {
      run(req, res, fail);
    } catch (error) {
      fail(error as Error);
    }
  });
}
