import { lookup } from 'node:dns/promises';
import { request } from 'node:https';
import { ApiHttpError } from '../errors/api-http-error.js';
import { isPublicAddress } from './public-address.js';
import { resolvePublicHost } from './resolve-public-host.js';

export { isPublicAddress };

export interface FetchedResponse {
  status: number;
  location: string | undefined;
  body: AsyncIterable<Uint8Array>;
  /** Stops reading (and the connection). */
  destroy(): void;
}

/** The network, injectable so every refusal is provable without it. */
export interface PublicFetchDeps {
  resolve(hostname: string): Promise<string[]>;
  /** GET `url`, connecting to `address` (the checked one) rather than resolving again. */
  get(url: URL, address: string, signal: AbortSignal): Promise<FetchedResponse>;
}

export interface PublicFetchOptions {
  maxBytes: number;
  timeoutMs?: number;
  maxRedirects?: number;
  deps?: PublicFetchDeps | undefined;
}

/** Why a `sourceUrl` was not fetched; stable, for clients to branch on (`details[0].reason`). */
export type SourceUrlRefusal =
  | 'not_https'
  | 'credentials'
  | 'unresolvable'
  | 'non_public_address'
  | 'too_many_redirects'
  | 'http_status'
  | 'timeout'
  | 'fetch_failed';

const refuse = (reason: SourceUrlRefusal, message: string) =>
  new ApiHttpError(400, 'validation_error', 'Validation failed', [{ path: 'sourceUrl', message, reason }]);

export const nodeFetchDeps: PublicFetchDeps = {
  async resolve(hostname) {
    return (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);
  },
  get(url, address, signal) {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: address,
          // TLS still verifies the certificate against the name in the URL.
          servername: url.hostname,
          port: url.port || 443,
          path: `${url.pathname}${url.search}`,
          method: 'GET',
          headers: { host: url.host, 'user-agent': 'vsf-photo-fetch/1', accept: 'image/*' },
          signal,
        },
        (res) =>
          resolve({
            status: res.statusCode ?? 0,
            location: typeof res.headers.location === 'string' ? res.headers.location : undefined,
            body: res,
            destroy: () => res.destroy(),
          }),
      );
      req.on('error', reject);
      req.end();
    });
  },
};

/**
 * Fetches an image from a caller-supplied URL without letting the caller reach the server's own
 * network: https only, no credentials, every resolved address public (checked again at every redirect,
 * at most 3), the connection pinned to the checked address, 10 s in all, and reading stops past the cap.
 */
export async function fetchPublicImage(sourceUrl: string, options: PublicFetchOptions): Promise<Uint8Array> {
  const deps = options.deps ?? nodeFetchDeps;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxRedirects = options.maxRedirects ?? 3;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    let url = new URL(sourceUrl);
    for (let redirects = 0; ; redirects++) {
      if (url.protocol !== 'https:') throw refuse('not_https', 'Only https:// URLs are fetched');
      if (url.username || url.password) throw refuse('credentials', 'URLs with credentials are not fetched');
      const host = await resolvePublicHost(url, deps.resolve);
      if ('refusal' in host) throw refuse(host.refusal, host.message);
      const response = await deps.get(url, host.address, controller.signal);
      if (response.status >= 300 && response.status < 400 && response.location) {
        response.destroy();
        if (redirects >= maxRedirects) throw refuse('too_many_redirects', `More than ${maxRedirects} redirects`);
        url = new URL(response.location, url);
        continue;
      }
      if (response.status !== 200) {
        response.destroy();
        throw refuse('http_status', `The URL answered HTTP ${response.status}`);
      }
      const chunks: Uint8Array[] = [];
      let size = 0;
      // The deadline holds whatever the transport does with the signal: each read races it, and the
      // body is dropped when it passes, so a source dripping bytes under the cap is still cut off.
      const deadline = new Promise<never>((_, reject) => {
        const expire = () => {
          response.destroy();
          reject(new Error('deadline passed'));
        };
        if (controller.signal.aborted) expire();
        else controller.signal.addEventListener('abort', expire, { once: true });
      });
      deadline.catch(() => {});
      const reader = response.body[Symbol.asyncIterator]();
      try {
        for (;;) {
          const next = await Promise.race([reader.next(), deadline]);
          if (next.done) break;
          size += next.value.byteLength;
          if (size > options.maxBytes) {
            response.destroy();
            throw new ApiHttpError(
              413,
              'payload_too_large',
              `The image at sourceUrl is larger than ${options.maxBytes} bytes`,
            );
          }
          chunks.push(next.value);
        }
      } finally {
        Promise.resolve(reader.return?.()).catch(() => {});
      }
      return Buffer.concat(chunks);
    }
  } catch (error) {
    if (error instanceof ApiHttpError) throw error;
    if (controller.signal.aborted) throw refuse('timeout', `Fetching the URL took longer than ${timeoutMs / 1000} s`);
    // Socket and TLS errors name addresses and ports of the server's own network: never echo them.
    throw new ApiHttpError(400, 'validation_error', 'Could not fetch sourceUrl', [
      {
        path: 'sourceUrl',
        message: 'Could not fetch sourceUrl; check that it serves the image over https',
        reason: 'fetch_failed',
      },
    ]);
  } finally {
    clearTimeout(timer);
  }
}
