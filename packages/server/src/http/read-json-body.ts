import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { BODY_LIMIT_BYTES } from '@vsf/contract';
import type { Request } from 'express';
import { ApiHttpError, validationFailed } from '../errors/api-http-error.js';
import { jsonSafetyProblems } from './json-safety.js';

const DECODERS: ReadonlyMap<string, () => Readable & NodeJS.WritableStream> = new Map([
  ['gzip', createGunzip],
  ['x-gzip', createGunzip],
  ['deflate', createInflate],
  ['br', createBrotliDecompress],
]);

const tooLarge = () => new ApiHttpError(413, 'payload_too_large', 'Request body is larger than the 5 MB limit');

/**
 * Reads and parses a JSON request body. Called by the endpoint binding only after the request is
 * authenticated and its scopes checked, so an unauthenticated caller never makes the server buffer or
 * parse a large body. Returns `undefined` when the request has no JSON body (no body, or another type).
 *
 * `Content-Encoding` may be `identity`, `gzip`, `deflate` or `br` (decoded, the 5 MB limit applying to the
 * decoded bytes); a body that is not in the declared encoding is 400, any other encoding 415. The parsed
 * value is checked for what PostgreSQL cannot store or our own code should not walk: NUL characters in
 * strings and keys, and nesting deeper than `MAX_JSON_DEPTH`.
 */
export async function readJsonBody(req: Request): Promise<unknown> {
  if (!hasBody(req) || !req.is(['application/json', 'application/*+json'])) {
    // An unread body would otherwise be read by Node after the response; nothing of it is kept.
    req.resume();
    return undefined;
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.get('content-type') ?? '')?.[1]?.toLowerCase();
  if (charset && charset !== 'utf-8' && charset !== 'utf8') {
    req.resume();
    throw new ApiHttpError(415, 'unsupported_media_type', 'Unsupported charset; send UTF-8 JSON');
  }
  const encoding = (req.get('content-encoding') ?? 'identity').trim().toLowerCase();
  const decoder = encoding === 'identity' ? undefined : DECODERS.get(encoding);
  if (encoding !== 'identity' && !decoder) {
    req.resume();
    throw new ApiHttpError(
      415,
      'unsupported_media_type',
      `Unsupported Content-Encoding "${encoding.slice(0, 40)}"; send identity, gzip, deflate or br`,
    );
  }
  const declared = Number(req.get('content-length'));
  if (Number.isFinite(declared) && declared > BODY_LIMIT_BYTES) {
    req.resume();
    throw tooLarge();
  }

  const text = await readText(req, decoder?.(), encoding);
  const trimmed = text.trimStart();
  if (trimmed === '') return undefined;
  // Like express.json's strict mode: a JSON body is an object or an array.
  if (trimmed[0] !== '{' && trimmed[0] !== '[') throw invalidJson();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidJson();
  }
  const problems = jsonSafetyProblems(value);
  if (problems.length > 0) throw validationFailed(problems);
  return value;
}

const invalidJson = () => new ApiHttpError(400, 'invalid_json', 'Malformed JSON body');

function hasBody(req: Request): boolean {
  return req.get('transfer-encoding') !== undefined || Number(req.get('content-length') ?? 0) > 0;
}

/** The body's bytes as UTF-8 text, decoded from `encoding`, refused past the limit. */
function readText(req: Request, decoder: (Readable & NodeJS.WritableStream) | undefined, encoding: string) {
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const source: Readable = decoder ? req.pipe(decoder) : req;
    const fail = (error: ApiHttpError) => {
      if (settled) return;
      settled = true;
      if (decoder) {
        req.unpipe(decoder);
        decoder.destroy();
      }
      req.resume();
      reject(error);
    };
    source.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT_BYTES) fail(tooLarge());
      else if (!settled) chunks.push(chunk);
    });
    source.on('end', () => {
      if (settled) return;
      settled = true;
      const bytes = Buffer.concat(chunks);
      const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
      try {
        resolve(text.decode(bytes));
      } catch {
        reject(new ApiHttpError(400, 'invalid_json', 'Request body is not valid UTF-8'));
      }
    });
    source.on('error', () =>
      fail(
        new ApiHttpError(
          400,
          'invalid_json',
          decoder
            ? `Request body is not ${encoding}-encoded as its Content-Encoding says; send the encoded bytes or drop the header`
            : 'Request body could not be read',
        ),
      ),
    );
    if (decoder) req.on('error', () => fail(new ApiHttpError(400, 'invalid_json', 'Request body could not be read')));
  });
}
