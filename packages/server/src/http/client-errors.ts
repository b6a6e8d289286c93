import { type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ApiHttpError, apiErrorBody } from '../errors/api-http-error.js';

/** What a request Node could not parse is told, by the parser's error code. */
function describe(error: NodeJS.ErrnoException): ApiHttpError {
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return new ApiHttpError(
      431,
      'validation_error',
      'The request headers are too large (16 KiB in all); send fewer or shorter headers',
    );
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return new ApiHttpError(
      408,
      'request_timeout',
      'The request headers did not arrive in time; send the request again',
    );
  return new ApiHttpError(
    400,
    'validation_error',
    `The request is not valid HTTP/1.1 (${error.code ?? 'parse error'}); check its request line, headers and Content-Length`,
  );
}

/**
 * Answers a request Node's parser refuses (a malformed request line or header, headers too large, or bytes
 * left over after a body shorter than its `Content-Length` said) with an ApiError, as every other bad
 * request is answered, instead of Node's bare `400 Bad Request`. A response still owed on the connection
 * (the request before the bad bytes) is sent first; Node's own handler cut it off. The connection closes.
 */
export function answerClientErrors(server: Server): void {
  // An `Expect` other than `100-continue` (Node's bare 417 otherwise), and `CONNECT` (a closed socket
  // otherwise): this is an API, not a proxy.
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    send(
      res,
      new ApiHttpError(
        417,
        'validation_error',
        'Only Expect: 100-continue is supported; send the request without the Expect header',
      ),
    );
  });
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    socket.end(
      rawResponse(
        new ApiHttpError(405, 'validation_error', 'CONNECT is not supported: this server is an API, not a proxy'),
      ),
    );
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // A client that left: destroyed with its error, as Node's own handler does, so the request in flight
    // learns it was aborted (request-aborted.ts).
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy(error);
      return;
    }
    const refusal = describe(error);
    const answer = () => {
      if (!socket.writable) return void socket.destroy();
      socket.end(rawResponse(refusal));
    };
    const owed = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (owed && !owed.writableFinished && !owed.req.complete) {
      // The request in flight is itself cut (its body ended early, the connection half-closed): it is
      // aborted, as Node's own handler has it, and its handler finds out (request-aborted.ts).
      if (error.code === 'HPE_INVALID_EOF_STATE' || owed.headersSent) return void socket.destroy(error);
      // Its body is malformed (a bad chunk size): it is answered now, as nothing more of it can be read,
      // and the connection closes after the answer (its handler, still waiting on the body, then sees it
      // aborted and answers nothing).
      send(owed, refusal, () => socket.destroy());
      return;
    }
    if (owed && !owed.writableFinished) {
      // Left keep-alive, so Node does not end the connection when it is sent, before this answer.
      owed.once('finish', answer);
      owed.once('close', () => {
        if (!owed.writableFinished) socket.destroy();
      });
    } else answer();
  });
}

/** The refusal's status, headers (the connection closes after it) and `ApiError` body. */
function answerOf(error: ApiHttpError) {
  const body = JSON.stringify(apiErrorBody(error));
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    Connection: 'close',
  };
  return { status: error.status, headers, body };
}

const send = (res: ServerResponse, error: ApiHttpError, sent?: () => void) => {
  const { status, headers, body } = answerOf(error);
  res.writeHead(status, headers).end(body, sent);
};

/** A whole response, for a socket no ServerResponse speaks for. */
function rawResponse(error: ApiHttpError): string {
  const { status, headers, body } = answerOf(error);
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join('')}\r\n${body}`;
}
