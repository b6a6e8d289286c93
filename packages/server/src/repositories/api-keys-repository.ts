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
  async findCredentialsByPrefix(db: Executor, prefix: string): Promise<KeyCredentials | undefined> {
    const row: (ApiKeyRow & { api_enabled: boolean }) | undefined = await db('api_keys')
      .join('teams', 'teams.id', 'api_keys.team_id')
      .where('api_keys.prefix', prefix)
      .first('api_keys.*', 'teams.api_enabled');
    return row ? { key: toAdminKey(row), secretHash: row.secret_hash, teamApiEnabled: row.api_enabled } : undefined;
  },

  /** `findCredentialsByPrefix` for many keys in one query (the key cache's grouped reads), by prefix. */
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

  /** Throttled to one write a minute per key so reads do not turn into writes. */
  async touchLastUsed(db: Executor, id: string, now: Date, resolutionMs = 60_000): Promise<void> {
    await db('api_keys')
      .where({ id })
      .where((q) => q.whereNull('last_used_at').orWhere('last_used_at', '<', new Date(now.getTime() - resolutionMs)))
      .update({ last_used_at: now });
  },
};
