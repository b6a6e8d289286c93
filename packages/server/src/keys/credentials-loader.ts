import type { Knex } from 'knex';
import { apiKeysRepository, type KeyCredentials } from '../repositories/api-keys-repository.js';
import { GroupedRoundTrips } from './grouped-round-trips.js';
import type { VerifiedKeyCache } from './verified-key-cache.js';

/**
 * How long a background refresh gathers keys before its one query (nobody waits on it; an entry is refreshed
 * from half its TTL, so well before it runs out): keys in idle use fall due at their own moments.
 */
export const REFRESH_GATHER_MS = 5_000;

/**
 * API keys' credentials for authentication: from the verified-key cache when it holds them, else read, with
 * the reads of every key missing at the same time in one query (group commit: a miss never waits longer than
 * it would alone). A key in use past half its cache TTL is read again in the background, gathered with the
 * others due within `REFRESH_GATHER_MS`, so keys in steady use do not each miss once a TTL.
 * Every read is stored only if nothing was invalidated since it was sent (the cache's generation), as before.
 */
export class CredentialsLoader {
  private readonly reads: GroupedRoundTrips<string, null, KeyCredentials>;
  private readonly refreshes: GroupedRoundTrips<string, null, KeyCredentials>;

  constructor(
    db: Knex,
    private readonly cache: VerifiedKeyCache | undefined,
    refreshGatherMs = REFRESH_GATHER_MS,
  ) {
    const read = async (prefixes: readonly string[]) => {
      const generation = cache?.snapshot() ?? 0;
      const found = prefixes.length > 0 ? await apiKeysRepository.findCredentialsByPrefixes(db, prefixes) : new Map();
      if (cache) for (const [prefix, credentials] of found) cache.set(prefix, credentials, generation);
      return found;
    };
    this.reads = new GroupedRoundTrips((group) => read([...group.keys()]));
    // A key refilled meanwhile (a miss read it) is not read again.
    this.refreshes = new GroupedRoundTrips(
      (group) => read([...group.keys()].filter((prefix) => cache?.needsRefresh(prefix) ?? false)),
      refreshGatherMs,
    );
  }

  /** The key's credentials (undefined: no such key). */
  async load(prefix: string): Promise<KeyCredentials | undefined> {
    const cached = this.cache?.get(prefix);
    if (!cached) return this.reads.add(prefix, null);
    if (this.cache?.needsRefresh(prefix)) this.refreshSoon(prefix);
    return cached;
  }

  /** Reads the key again within the gathering delay, with the others due then, unless refilled meanwhile. */
  private refreshSoon(prefix: string): void {
    if (!this.cache?.enabled || this.refreshes.has(prefix)) return;
    this.refreshes.add(prefix, null).catch(() => {
      // A failed refresh leaves the entry to its TTL: the next miss reads it and reports the error.
    });
  }
}
