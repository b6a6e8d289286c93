import type { Knex } from 'knex';
import { apiKeysRepository } from '../repositories/api-keys-repository.js';
import { GroupedRoundTrips } from './grouped-round-trips.js';

/**
 * Keys' `last_used_at` writes, one statement for every key stamped at the same time (group commit: a stamp
 * never waits longer than it would alone), and one stamp per key at a time: the key's other requests that find
 * its last use stale while its stamp is under way wait for that one instead of each writing again. Each row is
 * still written only when its stored last use is older than the resolution (the statement re-checks).
 */
export class LastUseStamps {
  private readonly writes: GroupedRoundTrips<string, Date, true>;
  /** The stamp under way (queued or sent) per key id. */
  private readonly underWay = new Map<string, Promise<unknown>>();

  constructor(db: Knex, resolutionMs: number) {
    this.writes = new GroupedRoundTrips(async (group) => {
      await apiKeysRepository.touchLastUsed(db, group, resolutionMs);
      return new Map([...group.keys()].map((id) => [id, true as const]));
    });
  }

  /** Writes `now` as the key's last use unless a stamp of it is already under way; resolves once written. */
  async stamp(keyId: string, now: Date): Promise<void> {
    const current = this.underWay.get(keyId);
    if (current) {
      await current;
      return;
    }
    const written = this.writes.add(keyId, now).finally(() => {
      if (this.underWay.get(keyId) === written) this.underWay.delete(keyId);
    });
    this.underWay.set(keyId, written);
    await written;
  }
}
