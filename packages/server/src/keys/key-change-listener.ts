import pg from 'pg';
import type { VerifiedKeyCache } from './verified-key-cache.js';

/** The channel migration 022's trigger notifies on. */
export const KEY_CHANGES_CHANNEL = 'vsf_key_changes';

export interface KeyChangeListener {
  /** Resolves once the first LISTEN is in place (or the first attempt failed; retries go on). */
  ready: Promise<void>;
  close(): Promise<void>;
}

export interface KeyChangeListenerOptions {
  /** How often the connection is proven alive; the cache is trusted for `trustMs` after each proof. */
  heartbeatMs?: number;
  trustMs?: number;
  /** First retry delay; doubles up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
  onError?: (error: Error) => void;
}

/**
 * Keeps a dedicated `pg` connection LISTENing for key and team changes and applies them to `cache`. The
 * cache is trusted only while that connection is up: on any error or disconnect it is cleared and marked
 * untrusted (every request reads the database), and after reconnecting it is cleared again (notifications
 * sent meanwhile were missed) before being trusted.
 */
export function listenForKeyChanges(
  connectionString: string,
  cache: VerifiedKeyCache,
  options: KeyChangeListenerOptions = {},
): KeyChangeListener {
  const retryMs = options.retryMs ?? 100;
  const maxRetryMs = options.maxRetryMs ?? 5_000;
  let closed = false;
  let client: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  const heartbeatMs = options.heartbeatMs ?? 200;
  // Below the one-second guarantee by a margin for the event loop between a lookup and its use.
  const trustMs = options.trustMs ?? 900;
  let heartbeat: NodeJS.Timeout | undefined;
  let delay = retryMs;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  const down = (error: Error | undefined, failed: pg.Client) => {
    if (client !== failed) return;
    client = undefined;
    if (heartbeat) clearInterval(heartbeat);
    cache.setTrusted(false);
    failed.removeAllListeners('notification');
    failed.end().catch(() => {});
    if (error) options.onError?.(error);
    markReady();
    if (closed) return;
    timer = setTimeout(connect, delay);
    delay = Math.min(delay * 2, maxRetryMs);
  };

  const connect = async () => {
    if (closed) return;
    const next = new pg.Client({ connectionString, keepAlive: true });
    client = next;
    next.on('error', (error) => down(error, next));
    next.on('end', () => down(undefined, next));
    next.on('notification', (message) => {
      if (message.channel === KEY_CHANGES_CHANNEL) cache.applyMessage(message.payload ?? '');
    });
    try {
      await next.connect();
      const sent = cache.now();
      await next.query(`LISTEN ${KEY_CHANGES_CHANNEL}`);
      if (client !== next || closed) return;
      delay = retryMs;
      cache.setTrusted(true);
      cache.trustUntil(sent + trustMs);
      let pending = false;
      heartbeat = setInterval(() => {
        if (pending) return; // still waiting: trust runs out on its own
        pending = true;
        const at = cache.now();
        next.query('select 1').then(
          () => {
            pending = false;
            if (client === next) cache.trustUntil(at + trustMs);
          },
          (error: Error) => down(error, next),
        );
      }, heartbeatMs);
      heartbeat.unref();
      markReady();
    } catch (error) {
      down(error as Error, next);
    }
  };

  cache.setTrusted(false);
  void connect();
  return {
    ready,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      if (heartbeat) clearInterval(heartbeat);
      const current = client;
      client = undefined;
      cache.setTrusted(false);
      await current?.end().catch(() => {});
    },
  };
}
