import type { AdminKey } from '@vsf/contract';

/** What authentication needs about a key, as last read from the database. */
export interface CachedKey {
  key: AdminKey;
  secretHash: string;
  teamApiEnabled: boolean;
}

/**
 * What authentication needs about an assistant's access token (oauth-repository's
 * `AccessTokenCredentials`), by the fields the cache itself reads.
 */
export interface CachedToken {
  grantId: string;
  teamId: string;
  lastUsedAt: string | null;
}

type Cached = CachedKey | CachedToken;

const teamOf = (value: Cached) => ('key' in value ? value.key.teamId : value.teamId);

/** Tokens are held by their hash, under a name no key prefix can take. */
const tokenEntry = (tokenHash: string) => `token:${tokenHash}`;

export interface KeyCacheOptions {
  /** Most keys held; the least recently used one goes first. 0 turns the cache off. */
  maxEntries: number;
  /** Safety net: an entry is read again from the database after this long even without a notification. */
  ttlMs: number;
  /** Monotonic clock in ms (tests inject one). */
  clock?: () => number;
}

export const DEFAULT_KEY_CACHE: KeyCacheOptions = { maxEntries: 10_000, ttlMs: 30_000 };

interface Entry {
  value: Cached;
  storedAt: number;
}

/**
 * Keys read from the database, by prefix, so an authenticated request skips the key lookup (and the
 * assistant connector's access tokens, by hash, under the same invalidation). The secret is
 * still compared against the cached hash on every request, and expiry against the clock (the caller does
 * both). Correctness rests on invalidation: the instance that changes a key or team drops it at once, and
 * a listener (PostgreSQL LISTEN/NOTIFY) drops it on the other instances. While no listener is connected
 * the cache is untrusted and every lookup goes to the database.
 */
export class VerifiedKeyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly clock: () => number;
  /** Bumped by every invalidation: a read that began before one must not store what it read. */
  private generation = 0;
  private trusted: boolean;
  /** Lookups are served from memory only before this moment (a listener's heartbeat keeps moving it). */
  private trustedUntil = Number.POSITIVE_INFINITY;

  constructor(
    private readonly options: KeyCacheOptions,
    { trusted = true }: { trusted?: boolean } = {},
  ) {
    this.clock = options.clock ?? (() => performance.now());
    this.trusted = trusted;
  }

  get size(): number {
    return this.entries.size;
  }

  get enabled(): boolean {
    return this.options.maxEntries > 0;
  }

  /** Whether lookups may be served from memory (false while the invalidation listener is down). */
  get isTrusted(): boolean {
    return this.trusted && this.clock() < this.trustedUntil;
  }

  /** The cache's clock, for a listener stamping its heartbeats. */
  now(): number {
    return this.clock();
  }

  /**
   * Serve from memory only until `deadline`: a listener sets it from each heartbeat that came back, since
   * every notification sent before that heartbeat arrived ahead of its answer. A stalled connection (no
   * error yet) thus stops being trusted on its own.
   */
  trustUntil(deadline: number): void {
    this.trustedUntil = deadline;
  }

  /** The generation to pass to `set` for a database read about to start. */
  snapshot(): number {
    return this.generation;
  }

  get(prefix: string): CachedKey | undefined {
    return this.read(prefix) as CachedKey | undefined;
  }

  getToken<T extends CachedToken>(tokenHash: string): T | undefined {
    return this.read(tokenEntry(tokenHash)) as T | undefined;
  }

  private read(prefix: string): Cached | undefined {
    if (!this.enabled || !this.isTrusted) return undefined;
    const entry = this.entries.get(prefix);
    if (!entry) return undefined;
    if (this.clock() - entry.storedAt >= this.options.ttlMs) {
      this.entries.delete(prefix);
      return undefined;
    }
    // Re-insert to mark it most recently used (Map keeps insertion order).
    this.entries.delete(prefix);
    this.entries.set(prefix, entry);
    return entry.value;
  }

  /**
   * Whether the key is worth reading again ahead of need: no entry, or one past half its TTL. Its lookups are
   * still served from memory until the TTL; a refresh read in the background (grouped with other keys') keeps a
   * key in steady use from ever missing on its TTL (each miss is a read its request waits for, one per key).
   */
  needsRefresh(prefix: string): boolean {
    const entry = this.entries.get(prefix);
    return !entry || this.clock() - entry.storedAt >= this.options.ttlMs / 2;
  }

  /** Stores a read unless something was invalidated since `generation` (the read may predate that change). */
  set(prefix: string, value: CachedKey, generation: number): void {
    this.store(prefix, value, generation);
  }

  setToken(tokenHash: string, value: CachedToken, generation: number): void {
    this.store(tokenEntry(tokenHash), value, generation);
  }

  private store(prefix: string, value: Cached, generation: number): void {
    if (!this.trusted || !this.enabled || generation !== this.generation) return;
    this.entries.delete(prefix);
    this.entries.set(prefix, { value, storedAt: this.clock() });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  /** Records a newer `lastUsedAt` without counting as a change (it does not affect authentication). */
  touch(prefix: string, lastUsedAt: string): void {
    const entry = this.entries.get(prefix);
    if (entry && 'key' in entry.value) entry.value = { ...entry.value, key: { ...entry.value.key, lastUsedAt } };
  }

  /** A token's grant was used: as `touch`, for every cached token of that grant. */
  touchGrant(grantId: string, lastUsedAt: string): void {
    for (const entry of this.entries.values())
      if (!('key' in entry.value) && entry.value.grantId === grantId) entry.value = { ...entry.value, lastUsedAt };
  }

  invalidateKey(prefix: string): void {
    this.generation++;
    this.entries.delete(prefix);
  }

  invalidateTeam(teamId: string): void {
    this.generation++;
    for (const [prefix, entry] of this.entries) if (teamOf(entry.value) === teamId) this.entries.delete(prefix);
  }

  invalidateGrant(grantId: string): void {
    this.generation++;
    for (const [prefix, entry] of this.entries)
      if (!('key' in entry.value) && entry.value.grantId === grantId) this.entries.delete(prefix);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  /**
   * Applies a change notification: `key:<prefix>`, `team:<id>`, `grant:<id>`, or anything else (`all`) clears everything,
   * so an unknown message errs on the side of reading the database.
   */
  applyMessage(message: string): void {
    if (message.startsWith('key:')) this.invalidateKey(message.slice(4));
    else if (message.startsWith('team:')) this.invalidateTeam(message.slice(5));
    else if (message.startsWith('grant:')) this.invalidateGrant(message.slice(6));
    else this.clear();
  }

  /** Untrusted: drop everything and read the database until trusted again (a listener reconnected). */
  setTrusted(trusted: boolean): void {
    this.clear();
    this.trusted = trusted;
  }
}

const nonNegativeInteger = (env: NodeJS.ProcessEnv, name: string, fallback: number, meaning: string) => {
  const value = Number(env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number ≥ 0 (${meaning})`);
  return value;
};

export function keyCacheFromEnv(env: NodeJS.ProcessEnv): KeyCacheOptions {
  return {
    maxEntries: nonNegativeInteger(env, 'VSF_KEY_CACHE_SIZE', DEFAULT_KEY_CACHE.maxEntries, 'keys; 0 turns it off'),
    ttlMs: nonNegativeInteger(env, 'VSF_KEY_CACHE_TTL_MS', DEFAULT_KEY_CACHE.ttlMs, 'milliseconds'),
  };
}
