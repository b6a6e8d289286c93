import type { AdminMember } from '@vsf/contract';
import type { Knex } from 'knex';
import { jsonArray, recordTimes, updateRow } from './row-values.js';
import type { Executor } from './team-scoped-table.js';

interface MemberRow {
  id: string;
  team_id: string;
  email: string;
  password_hash: string;
  scopes: string[] | string;
  created_at: Date;
  updated_at: Date;
}

/** The list query every admin list takes: paging, `updatedAfter` (inclusive) and `ids`. */
export interface AdminListQuery {
  page: number;
  limit: number;
  updatedAfter?: Date | undefined;
  ids?: string[] | undefined;
}

/** A team's rows of `table`, narrowed as the list query asks. */
export function adminListFilter(query: Knex.QueryBuilder, table: string, teamId: string, filters: AdminListQuery) {
  query.where(`${table}.team_id`, teamId);
  if (filters.updatedAfter) query.where(`${table}.updated_at`, '>=', filters.updatedAfter);
  if (filters.ids) query.whereIn(`${table}.id`, filters.ids);
  return query;
}

/**
 * One page of a team's rows of `table` and the count of all that match: `from` names what is selected
 * (joins included), `order` the page's order, `map` each row's record.
 */
export async function adminPage<R, T>(
  db: Executor,
  table: string,
  teamId: string,
  query: AdminListQuery,
  order: (q: Knex.QueryBuilder) => Knex.QueryBuilder,
  map: (row: R) => T,
  from: (db: Executor) => Knex.QueryBuilder = (d) => d(table),
): Promise<{ records: T[]; total: number }> {
  const rows: R[] = await order(adminListFilter(from(db), table, teamId, query))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  const [count] = await adminListFilter(db(table), table, teamId, query).count<{ count: string | number }[]>(
    '* as count',
  );
  return { records: rows.map(map), total: Number(count?.count ?? 0) };
}

function toMember(row: MemberRow): AdminMember {
  return {
    id: row.id,
    teamId: row.team_id,
    email: row.email,
    scopes: jsonArray(row.scopes),
    ...recordTimes(row),
  };
}

/** A member as sign-in needs it: the record, its password hash and whether its team's API is on. */
export interface MemberCredentials {
  member: AdminMember;
  passwordHash: string;
  teamApiEnabled: boolean;
}

/** Team members; every read and write but sign-in's lookup by email names the team. */
export const teamMembersRepository = {
  async insert(
    db: Executor,
    member: { id: string; teamId: string; email: string; passwordHash: string; scopes: string[] },
    now: Date,
  ): Promise<AdminMember> {
    const [row] = await db('team_members')
      .insert({
        id: member.id,
        team_id: member.teamId,
        email: member.email,
        password_hash: member.passwordHash,
        scopes: JSON.stringify(member.scopes),
        created_at: now,
        updated_at: now,
      })
      .returning('*');
    return toMember(row);
  },

  page: (db: Executor, teamId: string, query: AdminListQuery) =>
    adminPage(
      db,
      'team_members',
      teamId,
      query,
      (q) => q.orderBy([{ column: 'created_at' }, { column: 'id' }]),
      toMember,
    ),

  async find(db: Executor, teamId: string, id: string): Promise<AdminMember | undefined> {
    const row: MemberRow | undefined = await db('team_members').where({ team_id: teamId, id }).first();
    return row ? toMember(row) : undefined;
  },

  async emailTaken(db: Executor, email: string, exceptId?: string): Promise<boolean> {
    const query = db('team_members').where({ email });
    if (exceptId) query.whereNot({ id: exceptId });
    return (await query.first('id')) !== undefined;
  },

  async credentialsByEmail(db: Executor, email: string): Promise<MemberCredentials | undefined> {
    const row: (MemberRow & { api_enabled: boolean }) | undefined = await db('team_members')
      .join('teams', 'teams.id', 'team_members.team_id')
      .where('team_members.email', email)
      .first('team_members.*', 'teams.api_enabled');
    return row
      ? { member: toMember(row), passwordHash: row.password_hash, teamApiEnabled: row.api_enabled }
      : undefined;
  },

  update: (
    db: Executor,
    teamId: string,
    id: string,
    patch: { passwordHash?: string | undefined; scopes?: string[] | undefined },
    now: Date,
  ): Promise<AdminMember | undefined> =>
    updateRow(
      db,
      'team_members',
      { team_id: teamId, id },
      { password_hash: patch.passwordHash, scopes: patch.scopes && JSON.stringify(patch.scopes) },
      now,
      toMember,
    ),

  /** Its grants, their codes and tokens go with it (ON DELETE CASCADE). */
  async delete(db: Executor, teamId: string, id: string): Promise<boolean> {
    return (await db('team_members').where({ team_id: teamId, id }).delete().returning('id')).length > 0;
  },
};

/** The member a sign-in in progress names (any team: the request row knows only the member). */
export async function memberCredentialsById(db: Executor, id: string): Promise<MemberCredentials | undefined> {
  const row: (MemberRow & { api_enabled: boolean }) | undefined = await db('team_members')
    .join('teams', 'teams.id', 'team_members.team_id')
    .where('team_members.id', id)
    .first('team_members.*', 'teams.api_enabled');
  return row ? { member: toMember(row), passwordHash: row.password_hash, teamApiEnabled: row.api_enabled } : undefined;
}
