import { lookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isLoopbackHttpUrl } from '@vsf/contract';
import { resolvePublicHost } from '../media/resolve-public-host.js';

/** One attempt's outcome: a 2xx is `ok`; otherwise the status (if any) and why, as the delivery log shows it. */
export interface AttemptResult {
  ok: boolean;
  status: number | null;
  error: string | null;
}

export interface PostWebhookOptions {
  timeoutMs: number;
  allowHttpLoopback: boolean;
  /** DNS, injectable so tests need no network; the system resolver by default. */
  resolve?: ((hostname: string) => Promise<string[]>) | undefined;
  /** Ends the attempt early (the dispatcher is stopping); the result is then a failure to give back. */
  signal?: AbortSignal | undefined;
}

const systemResolve = async (hostname: string) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

const failed = (error: string, status: number | null = null): AttemptResult => ({ ok: false, status, error });

/**
 * POSTs one delivery. The host is resolved and every address checked public first (as the `sourceUrl`
 * fetch does), and the connection is made to the checked address, so a rebinding DNS answer cannot point
 * it inside the network; `http://127.0.0.1:<port>` only when the server allows it. No redirect is
 * followed (a 3xx is a failed attempt), and errors name no address or port of the server's network.
 */
export async function postWebhook(
  target: { url: string; body: string; headers: Record<string, string> },
  options: PostWebhookOptions,
): Promise<AttemptResult> {
  const url = new URL(target.url);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const stop = () => controller.abort();
  options.signal?.addEventListener('abort', stop, { once: true });
  if (options.signal?.aborted) controller.abort();
  const timedOut = `Timed out after ${options.timeoutMs / 1000} s`;
  try {
    let address: string;
    const loopback = isLoopbackHttpUrl(target.url);
    if (loopback) {
      if (!options.allowHttpLoopback) return failed('http:// URLs are not delivered to by this server');
      address = '127.0.0.1';
    } else {
      if (url.protocol !== 'https:') return failed('Only https:// URLs are delivered to');
      const aborted = new Promise<never>((_, reject) =>
        controller.signal.addEventListener('abort', () => reject(new Error(timedOut)), { once: true }),
      );
      aborted.catch(() => {});
      const host = await Promise.race([resolvePublicHost(url, options.resolve ?? systemResolve), aborted]);
      if ('refusal' in host) return failed(host.message);
      address = host.address;
    }
    const status = await send(url, address, loopback, target, controller.signal);
    return status >= 200 && status < 300 ? { ok: true, status, error: null } : failed(`HTTP ${status}`, status);
  } catch (error) {
    if (controller.signal.aborted) return failed(timedOut);
    const code = (error as NodeJS.ErrnoException).code;
    return failed(code ? `Connection failed (${code})` : 'Connection failed');
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', stop);
  }
}

/** The response's status; its body is read and dropped (until the deadline) so the socket closes cleanly. */
function send(
  url: URL,
  address: string,
  loopback: boolean,
  target: { body: string; headers: Record<string, string> },
  signal: AbortSignal,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = Buffer.from(target.body, 'utf8');
    // Once the status is in, a body cut off by the deadline does not undo the answer.
    let status: number | undefined;
    const req = (loopback ? httpRequest : httpsRequest)(
      {
        host: address,
        // TLS still verifies the certificate against the name in the URL.
        ...(loopback ? {} : { servername: url.hostname }),
        port: url.port || (loopback ? 80 : 443),
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        // One connection per attempt: a pooled socket would be to an address checked for another delivery.
        agent: false,
        headers: { ...target.headers, host: url.host, 'content-length': String(body.byteLength) },
        signal,
      },
      (res) => {
        status = res.statusCode ?? 0;
        res.on('error', () => {});
        res.once('close', () => resolve(status as number));
        res.resume();
      },
    );
    req.on('error', (error) => (status === undefined ? reject(error) : resolve(status)));
    req.end(body);
  });
}
