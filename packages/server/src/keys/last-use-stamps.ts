import type { Knex } from 'knex';
import { apiKeysRepository } from '../repositories/api-keys-repository.js';
import { GroupedRoundTrips } from './grouped-round-trips.js';

/** How long stamps gather before their one statement: a key's last use is kept to the minute anyway. */
export const STAMP_GATHER_MS = 2_000;

/**
 * Keys' `last_used_at` writes, in the background: the stamps of every key that falls due within `gatherMs`
 * go in one statement, and a key has one stamp at a time (its other requests that find its last use stale
 * meanwhile join that one). No request waits for it: 200 idle followers' keys falling due at their own
 * moments (as followers do once they drift apart) were 3 statements a second, one a key (issue #34). Each
 * row is still written only when its stored last use is older than the resolution (the statement re-checks).
 * `flush` writes what is gathered (the server's shutdown calls it before the database closes).
 */
export class LastUseStamps {
  private readonly writes: GroupedRoundTrips<string, Date, true>;

  constructor(
    db: Knex,
    resolutionMs: number,
    private readonly onError: (error: unknown) => void,
    gatherMs = STAMP_GATHER_MS,
  ) {
    this.writes = new GroupedRoundTrips(async (group) => {
      await apiKeysRepository.touchLastUsed(db, group, resolutionMs);
      return new Map([...group.keys()].map((id) => [id, true as const]));
    }, gatherMs);
  }

  /** Writes `now` as the key's last use within the gathering delay, unless a stamp of it is already queued. */
  stamp(keyId: string, now: Date): void {
    if (this.writes.has(keyId)) return;
    this.writes.add(keyId, now).catch(this.onError);
  }

  flush(): Promise<void> {
    return this.writes.flush();
  }
}
