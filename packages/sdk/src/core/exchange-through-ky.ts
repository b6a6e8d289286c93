import ky from 'ky';
import type { AttemptLimits, Exchange } from './exchange-within.js';
import { readBody } from './read-body.js';
import { JsonText, type RawBody } from './request-body.js';

/**
 * One attempt of a call with a body: ky sends the JSON text or the bytes as they are and builds the request.
 * ky's own timeout covers the wait for the response headers (`responseMs`, the upload included), `readBody`
 * what is left of the attempt's `ms` for the body; ky's retries stay off, p-retry drives them.
 */
export async function exchangeThroughKy(
  fetchImpl: typeof fetch,
  url: string,
  init: { method: string; headers: Record<string, string>; body: JsonText | RawBody },
  { ms, responseMs }: AttemptLimits,
  signal: AbortSignal | undefined,
  keepsBody: (response: Response) => boolean,
): Promise<Exchange> {
  const { method, headers, body } = init;
  const started = Date.now();
  const response = await ky(url, {
    method,
    ...(body instanceof JsonText
      ? { body: body.text, headers: { ...headers, 'content-type': 'application/json' } }
      : { body: body.bytes, headers: { ...headers, 'content-type': body.contentType } }),
    ...(signal ? { signal } : {}),
    retry: 0,
    timeout: Math.min(ms, responseMs),
    throwHttpErrors: false,
    fetch: fetchImpl,
  });
  if (keepsBody(response)) return { response };
  return { response, text: await readBody(response, ms - (Date.now() - started), signal) };
}
