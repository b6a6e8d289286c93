import { type ChangeListener, type ChangeListenerOptions, listenForChanges } from '../db/change-listener.js';
import type { VerifiedKeyCache } from './verified-key-cache.js';

/** The channel migration 022's trigger notifies on. */
export const KEY_CHANGES_CHANNEL = 'vsf_key_changes';

export interface KeyChangeListener {
  /** Resolves once the first LISTEN is in place (or the first attempt failed; retries go on). */
  ready: Promise<void>;
  close(): Promise<void>;
}

export interface KeyChangeListenerOptions extends ChangeListenerOptions {
  /** The cache is trusted for `trustMs` after each proof that the connection hears everything. */
  trustMs?: number;
}

/**
 * Applies the key and team changes `listener` hears to `cache`, trusting the cache only while that connection
 * is up: on any error or disconnect it is cleared and marked untrusted (every request reads the database),
 * and after reconnecting it is cleared again (notifications sent meanwhile were missed) before being
 * trusted. Each heartbeat extends the trust by `trustMs` from when it was sent, so a stalled connection (no
 * error yet) stops being trusted on its own. Call before the listener's first connection (right after
 * making it). Returns the unsubscribe.
 */
export function followKeyChanges(
  listener: ChangeListener,
  cache: VerifiedKeyCache,
  options: { trustMs?: number } = {},
): () => void {
  // Below the one-second guarantee by a margin for the event loop between a lookup and its use.
  const trustMs = options.trustMs ?? 900;
  // The listener stamps with performance.now(); the cache may keep another clock: carry the age over.
  const trustFrom = (sentAt: number) => cache.trustUntil(cache.now() - (performance.now() - sentAt) + trustMs);
  cache.setTrusted(false);
  const stopMessages = listener.on(KEY_CHANGES_CHANNEL, (payload) => cache.applyMessage(payload));
  const stopHooks = listener.watch({
    listening(sentAt) {
      cache.setTrusted(true);
      trustFrom(sentAt);
    },
    alive: trustFrom,
    lost: () => cache.setTrusted(false),
  });
  return () => {
    stopMessages();
    stopHooks();
    cache.setTrusted(false);
  };
}

/** A listener of its own for the key cache alone (the server shares one: start-server.ts). */
export function listenForKeyChanges(
  connectionString: string,
  cache: VerifiedKeyCache,
  options: KeyChangeListenerOptions = {},
): KeyChangeListener {
  const listener = listenForChanges(connectionString, [KEY_CHANGES_CHANNEL], options);
  const stop = followKeyChanges(listener, cache, options);
  return {
    ready: listener.ready,
    async close() {
      stop();
      await listener.close();
    },
  };
}
