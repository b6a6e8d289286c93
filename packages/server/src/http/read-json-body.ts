import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { BODY_LIMIT_BYTES } from '@vsf/contract';
import type { Request } from 'express';
import { ApiHttpError, validationFailed } from '../errors/api-http-error.js';
import { declaresBody } from './body-guard.js';
import type { BodyTimeouts } from './body-timeouts.js';
import { jsonSafetyProblems } from './json-safety.js';
import { readBodyBytes } from './read-body-bytes.js';

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
 * parse a large body. Returns `undefined` when the request has no body; a body of another type is 415
 * (`alsoAccepted` names what else the endpoint takes, for the message).
 *
 * `Content-Encoding` may be `identity`, `gzip`, `deflate` or `br` (decoded, the 5 MB limit applying to the
 * decoded bytes); a body that is not in the declared encoding is 400, any other encoding 415. The parsed
 * value is checked for what PostgreSQL cannot store or our own code should not walk: NUL characters in
 * strings and keys, and nesting deeper than `MAX_JSON_DEPTH`.
 */
export async function readJsonBody(
  req: Request,
  timeouts: BodyTimeouts,
  alsoAccepted?: string,
  /**
   * Off for an envelope whose contents are checked where they are used: `/mcp`'s JSON-RPC carries a tool's
   * arguments, which the API call they become checks field by field (a NUL is a 400 naming the field).
   */
  { checkSafety = true }: { checkSafety?: boolean } = {},
): Promise<unknown> {
  if (!declaresBody(req)) {
    req.resume();
    return undefined;
  }
  if (!req.is(['application/json', 'application/*+json'])) {
    req.resume();
    const type = req.get('content-type');
    throw new ApiHttpError(
      415,
      'unsupported_media_type',
      `Send the body as JSON (Content-Type: application/json)${alsoAccepted ? ` or ${alsoAccepted}` : ''}; got ${type ? `"${type.slice(0, 100)}"` : 'no Content-Type'}`,
    );
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
  const bytes = await readBodyBytes(req, {
    limit: BODY_LIMIT_BYTES,
    tooLarge,
    timeouts,
    decoder: decoder?.(),
    decodeFailed: () =>
      new ApiHttpError(
        400,
        'invalid_json',
        `Request body is not ${encoding}-encoded as its Content-Encoding says; send the encoded bytes or drop the header`,
      ),
  });
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new ApiHttpError(400, 'invalid_json', 'Request body is not valid UTF-8');
  }
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
  const problems = checkSafety ? jsonSafetyProblems(value) : [];
  if (problems.length > 0) throw validationFailed(problems);
  return value;
}

const invalidJson = () => new ApiHttpError(400, 'invalid_json', 'Malformed JSON body');
