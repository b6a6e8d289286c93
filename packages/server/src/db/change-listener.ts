import pg from 'pg';
import type { PgliteInstance } from './connect-database.js';

/**
 * What a subscriber is told about the connection. Times are `performance.now()` readings taken before the
 * statement was sent: every notification sent before then has arrived by the time the hook runs.
 */
export interface ListenerHooks {
  /** LISTEN is in place (again): anything sent while it was not was missed. */
  listening?(sentAt: number): void;
  /** A heartbeat came back: the connection still hears everything sent before `sentAt`. */
  alive?(sentAt: number): void;
  /** The connection is lost or closed: nothing is heard until `listening` is called again. */
  lost?(): void;
}

/**
 * One instance's LISTEN connection, shared by everything that reacts to commits (the key cache, waiting
 * feed requests, the webhook dispatcher), however many wait: one connection per instance.
 */
export interface ChangeListener {
  /** Resolves once the first LISTEN is in place (or the first attempt failed; retries go on). */
  readonly ready: Promise<void>;
  /** True while notifications are heard. */
  readonly listening: boolean;
  /** Calls `onMessage` with each payload sent on `channel` (one of those the listener was made for). */
  on(channel: string, onMessage: (payload: string) => void): () => void;
  /** Reports the connection's ups and downs to `hooks`. */
  watch(hooks: ListenerHooks): () => void;
  close(): Promise<void>;
}

export interface ChangeListenerOptions {
  /** How often the connection is proven alive (a stalled one raises no error of its own). */
  heartbeatMs?: number;
  /** First retry delay; doubles up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
  onError?: (error: Error) => void;
}

/**
 * The heartbeat's statement. It reads a row of a small catalog rather than nothing (`select 1`): PostgreSQL holds
 * back the transaction count of a backend whose statements touch no table (pg_stat_database's xact_commit)
 * until one does, so the listener's five heartbeats a second went uncounted for minutes, then landed at
 * once in whatever window was being measured (issue #34's figure swung by ±5/s). Counted as they run, they
 * are part of the idle server's own floor, as everywhere else.
 */
export const HEARTBEAT_SQL = 'select 1 from pg_catalog.pg_am limit 1';

/** Subscribers of one listener, by channel, and of its state. */
class Subscribers {
  readonly byChannel = new Map<string, Set<(payload: string) => void>>();
  readonly hooks = new Set<ListenerHooks>();

  constructor(readonly channels: readonly string[]) {
    for (const channel of channels) this.byChannel.set(channel, new Set());
  }

  on(channel: string, onMessage: (payload: string) => void): () => void {
    const handlers = this.byChannel.get(channel);
    if (!handlers) throw new Error(`Not listening on ${channel}: listen on it when the listener is made`);
    handlers.add(onMessage);
    return () => handlers.delete(onMessage);
  }

  watch(hooks: ListenerHooks): () => void {
    this.hooks.add(hooks);
    return () => this.hooks.delete(hooks);
  }

  deliver(channel: string, payload: string): void {
    for (const handler of this.byChannel.get(channel) ?? []) handler(payload);
  }

  tell(event: 'listening' | 'alive' | 'lost', at = 0): void {
    for (const hooks of this.hooks) hooks[event]?.(at);
  }

  /** The listener handed out over these subscribers, with its connection's readiness, state and close. */
  listener(ready: Promise<void>, isListening: () => boolean, close: () => Promise<void>): ChangeListener {
    return {
      ready,
      get listening() {
        return isListening();
      },
      on: (channel, onMessage) => this.on(channel, onMessage),
      watch: (hooks) => this.watch(hooks),
      close,
    };
  }
}

/**
 * Keeps a dedicated `pg` connection LISTENing on `channels`, reconnecting with backoff after any error or
 * disconnect and proving it alive with a heartbeat. Subscribers registered right after this returns see
 * everything: the first connection is made asynchronously.
 */
export function listenForChanges(
  connectionString: string,
  channels: readonly string[],
  options: ChangeListenerOptions = {},
): ChangeListener {
  const subscribers = new Subscribers(channels);
  const retryMs = options.retryMs ?? 100;
  const maxRetryMs = options.maxRetryMs ?? 5_000;
  const heartbeatMs = options.heartbeatMs ?? 200;
  let closed = false;
  let client: pg.Client | undefined;
  let listening = false;
  let timer: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let delay = retryMs;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  const down = (error: Error | undefined, failed: pg.Client) => {
    if (client !== failed) return;
    client = undefined;
    listening = false;
    if (heartbeat) clearInterval(heartbeat);
    failed.removeAllListeners('notification');
    failed.end().catch(() => {});
    subscribers.tell('lost');
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
    next.on('notification', (message) => subscribers.deliver(message.channel, message.payload ?? ''));
    try {
      await next.connect();
      const sent = performance.now();
      await next.query(channels.map((channel) => `LISTEN ${channel};`).join(' '));
      if (client !== next || closed) return;
      delay = retryMs;
      listening = true;
      subscribers.tell('listening', sent);
      let pending = false;
      heartbeat = setInterval(() => {
        if (pending) return; // still waiting: subscribers' trust runs out on its own
        pending = true;
        const at = performance.now();
        next.query(HEARTBEAT_SQL).then(
          () => {
            pending = false;
            if (client === next) subscribers.tell('alive', at);
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

  void connect();
  return subscribers.listener(
    ready,
    () => listening,
    async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      if (heartbeat) clearInterval(heartbeat);
      const current = client;
      client = undefined;
      if (listening) subscribers.tell('lost');
      listening = false;
      await current?.end().catch(() => {});
    },
  );
}

/**
 * Embedded PGlite's notifications, an in-process API: nothing to lose, so it is always listening. One
 * process owns the database, so every commit it hears is its own.
 */
export async function listenInProcess(pglite: PgliteInstance, channels: readonly string[]): Promise<ChangeListener> {
  const subscribers = new Subscribers(channels);
  const stops = await Promise.all(
    channels.map((channel) => pglite.listen(channel, (payload) => subscribers.deliver(channel, payload))),
  );
  let listening = true;
  return subscribers.listener(
    Promise.resolve(),
    () => listening,
    async () => {
      listening = false;
      subscribers.tell('lost');
      await Promise.all(stops.map((stop) => stop().catch(() => {})));
    },
  );
}
