import { randomUUID } from 'node:crypto';
import { type AdminKey, type AdminKeyCreated, type AdminTeam, DEFAULT_EVENT_TYPES } from '@vsf/contract';
import { notFound } from '../errors/api-http-error.js';
import { generateApiKey } from '../keys/api-key-format.js';
import { apiKeysRepository } from '../repositories/api-keys-repository.js';
import { eventTypesTable } from '../repositories/tables.js';
import { teamsRepository } from '../repositories/teams-repository.js';
import type { ServiceDeps } from './service-deps.js';

/** Teams and their API keys: what the dashboard's integration settings manage. */
export class TeamsService {
  constructor(private readonly deps: ServiceDeps) {}

  async createTeam(input: { name: string; apiEnabled?: boolean | undefined }): Promise<AdminTeam> {
    const now = this.deps.now();
    return this.deps.db.transaction(async (trx) => {
      const team = await teamsRepository.insert(
        trx,
        { id: randomUUID(), name: input.name, apiEnabled: input.apiEnabled ?? true },
        now,
      );
      for (const type of DEFAULT_EVENT_TYPES) {
        await eventTypesTable.insert(trx, team.id, { id: randomUUID(), ...type, isDefault: true }, now);
      }
      return team;
    });
  }

  listTeams(): Promise<AdminTeam[]> {
    return teamsRepository.list(this.deps.db);
  }

  async updateTeam(
    teamId: string,
    patch: { name?: string | undefined; apiEnabled?: boolean | undefined },
  ): Promise<AdminTeam> {
    const team = await teamsRepository.update(this.deps.db, teamId, patch, this.deps.now());
    if (!team) throw notFound('Team');
    // This instance's next request must see the change; other instances hear it from the database trigger.
    this.deps.keyCache?.invalidateTeam(teamId);
    return team;
  }

  async createKey(
    teamId: string,
    input: { name: string; scopes: string[]; expiresAt?: string | null | undefined },
  ): Promise<AdminKeyCreated> {
    if (!(await teamsRepository.findById(this.deps.db, teamId))) throw notFound('Team');
    const { key, prefix, secretHash } = generateApiKey();
    const stored = await apiKeysRepository.insert(
      this.deps.db,
      {
        id: randomUUID(),
        teamId,
        name: input.name,
        prefix,
        secretHash,
        scopes: [...new Set(input.scopes)].sort(),
        expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
      },
      this.deps.now(),
    );
    return { ...stored, key };
  }

  async listKeys(teamId: string): Promise<AdminKey[]> {
    if (!(await teamsRepository.findById(this.deps.db, teamId))) throw notFound('Team');
    return apiKeysRepository.listForTeam(this.deps.db, teamId);
  }

  async updateKey(keyId: string, patch: { name?: string | undefined; expiresAt?: string | null | undefined }) {
    const expiresAt =
      patch.expiresAt === undefined ? undefined : patch.expiresAt === null ? null : new Date(patch.expiresAt);
    const key = await apiKeysRepository.update(this.deps.db, keyId, { name: patch.name, expiresAt }, this.deps.now());
    if (!key) throw notFound('API key');
    this.deps.keyCache?.invalidateKey(key.prefix);
    return key;
  }

  async revokeKey(keyId: string): Promise<AdminKey> {
    const key = await apiKeysRepository.revoke(this.deps.db, keyId, this.deps.now());
    if (!key) throw notFound('API key');
    this.deps.keyCache?.invalidateKey(key.prefix);
    return key;
  }

  countTeams(): Promise<number> {
    return teamsRepository.count(this.deps.db);
  }
}
