import type { AdminTeam } from '@vsf/contract';
import { recordTimes, updateRow } from './row-values.js';
import type { Executor } from './team-scoped-table.js';

interface TeamRow {
  id: string;
  name: string;
  api_enabled: boolean;
  created_at: Date;
  updated_at: Date;
}

const toTeam = (row: TeamRow): AdminTeam => ({
  id: row.id,
  name: row.name,
  apiEnabled: row.api_enabled,
  ...recordTimes(row),
});

/** Teams are the tenancy boundary itself, so only the admin API and bootstrap reach this repository. */
export const teamsRepository = {
  async insert(db: Executor, team: { id: string; name: string; apiEnabled: boolean }, now: Date): Promise<AdminTeam> {
    const [row] = await db('teams')
      .insert({ id: team.id, name: team.name, api_enabled: team.apiEnabled, created_at: now, updated_at: now })
      .returning('*');
    return toTeam(row);
  },
  async list(db: Executor): Promise<AdminTeam[]> {
    const rows: TeamRow[] = await db('teams').orderBy([{ column: 'created_at' }, { column: 'id' }]);
    return rows.map(toTeam);
  },
  async count(db: Executor): Promise<number> {
    const row = await db('teams').count({ count: '*' }).first();
    return Number(row?.count ?? 0);
  },
  async findById(db: Executor, id: string): Promise<AdminTeam | undefined> {
    const row: TeamRow | undefined = await db('teams').where({ id }).first();
    return row ? toTeam(row) : undefined;
  },
  update: (
    db: Executor,
    id: string,
    patch: { name?: string | undefined; apiEnabled?: boolean | undefined },
    now: Date,
  ) => updateRow(db, 'teams', { id }, { name: patch.name, api_enabled: patch.apiEnabled }, now, toTeam),
};
