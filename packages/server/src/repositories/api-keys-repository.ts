import type { AdminKey } from '@vsf/contract';
import { iso, jsonArray, recordTimes, updateRow } from './row-values.js';
import type { Executor } from './team-scoped-table.js';

interface ApiKeyRow {
  id: string;
  team_id: string;
  name: string;
  prefix: string;
  secret_hash: string;
  scopes: string[] | string;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

function toAdminKey(row: ApiKeyRow): AdminKey {
  return {
    id: row.id,
    teamId: row.team_id,
    name: row.name,
    prefix: row.prefix,
    scopes: jsonArray(row.scopes),
    expiresAt: iso(row.expires_at),
    revokedAt: iso(row.revoked_at),
    lastUsedAt: iso(row.last_used_at),
    ...recordTimes(row),
  };
}

/** What authentication needs about a presented key, read in one query with its team. */
export interface KeyCredentials {
  key: AdminKey;
  secretHash: string;
  teamApiEnabled: boolean;
}

export const apiKeysRepository = {
  async insert(
    db: Executor,
    key: {
      id: string;
      teamId: string;
      name: string;
      prefix: string;
      secretHash: string;
      scopes: string[];
      expiresAt: Date | null;
    },
    now: Date,
  ): Promise<AdminKey> {
    const [row] = await db('api_keys')
      .insert({
        id: key.id,
        team_id: key.teamId,
        name: key.name,
        prefix: key.prefix,
        secret_hash: key.secretHash,
        scopes: JSON.stringify(key.scopes),
        expires_at: key.expiresAt,
        created_at: now,
        updated_at: now,
      })
      .returning('*');
    return toAdminKey(row);
  },

  async listForTeam(db: Executor, teamId: string): Promise<AdminKey[]> {
    const rows: ApiKeyRow[] = await db('api_keys')
      .where({ team_id: teamId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ]);
    return rows.map(toAdminKey);
  },

  async findById(db: Executor, id: string): Promise<AdminKey | undefined> {
    const row: ApiKeyRow | undefined = await db('api_keys').where({ id }).first();
    return row ? toAdminKey(row) : undefined;
  },

  // Read when the verified-key cache misses (AuthService); changes reach the cache through migration 022's trigger.
  /** Keys' credentials with their team's API switch, in one query (the key cache's grouped reads), by prefix. */
  async findCredentialsByPrefixes(db: Executor, prefixes: readonly string[]): Promise<Map<string, KeyCredentials>> {
    const rows: (ApiKeyRow & { api_enabled: boolean })[] = await db('api_keys')
      .join('teams', 'teams.id', 'api_keys.team_id')
      .whereIn('api_keys.prefix', prefixes)
      .select('api_keys.*', 'teams.api_enabled');
    return new Map(
      rows.map((row) => [
        row.prefix,
        { key: toAdminKey(row), secretHash: row.secret_hash, teamApiEnabled: row.api_enabled },
      ]),
    );
  },

  update: (
    db: Executor,
    id: string,
    patch: { name?: string | undefined; expiresAt?: Date | null | undefined },
    now: Date,
  ) => updateRow(db, 'api_keys', { id }, { name: patch.name, expires_at: patch.expiresAt }, now, toAdminKey),

  /** Keeps the first revocation time when revoked twice. */
  async revoke(db: Executor, id: string, now: Date): Promise<AdminKey | undefined> {
    await db('api_keys').where({ id }).whereNull('revoked_at').update({ revoked_at: now, updated_at: now });
    return this.findById(db, id);
  },

  /**
   * Writes each key's last use (id → when) in one statement, only where the stored one is older than the
   * resolution (the statement re-checks, so keys stamped concurrently elsewhere are written once).
   */
  async touchLastUsed(db: Executor, stamps: ReadonlyMap<string, Date>, resolutionMs: number): Promise<void> {
    const rows = [...stamps].map(([id, at]) => ({
      id,
      at: at.toISOString(),
      stale: new Date(at.getTime() - resolutionMs).toISOString(),
    }));
    await db.raw(
      `update api_keys as k set last_used_at = v.at
         from json_to_recordset(?::json) as v(id uuid, at timestamptz, stale timestamptz)
        where k.id = v.id and (k.last_used_at is null or k.last_used_at < v.stale)`,
      [JSON.stringify(rows)],
    );
  },
};
