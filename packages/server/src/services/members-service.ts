import { randomUUID } from 'node:crypto';
import type { AdminGrant, AdminMember } from '@vsf/contract';
import { conflict, notFound } from '../errors/api-http-error.js';
import { hashPassword } from '../keys/password-hash.js';
import { oauthRepository } from '../repositories/oauth-repository.js';
import { type AdminListQuery, teamMembersRepository } from '../repositories/team-members-repository.js';
import { teamsRepository } from '../repositories/teams-repository.js';
import type { ServiceDeps } from './service-deps.js';

const normalEmail = (email: string) => email.trim().toLowerCase();
const sortedScopes = (scopes: readonly string[]) => [...new Set(scopes)].sort();
const emailInUse = (email: string) =>
  conflict(`A member with email ${email} already exists; each email signs in to one team`);

/** Team members (who sign in to the assistant connector) and the grants they gave: the admin side. */
export class MembersService {
  constructor(private readonly deps: ServiceDeps) {}

  private async requireTeam(teamId: string): Promise<void> {
    if (!(await teamsRepository.findById(this.deps.db, teamId))) throw notFound('Team');
  }

  async create(teamId: string, input: { email: string; password: string; scopes: string[] }): Promise<AdminMember> {
    await this.requireTeam(teamId);
    const email = normalEmail(input.email);
    if (await teamMembersRepository.emailTaken(this.deps.db, email)) throw emailInUse(email);
    const passwordHash = await hashPassword(input.password);
    try {
      return await teamMembersRepository.insert(
        this.deps.db,
        { id: randomUUID(), teamId, email, passwordHash, scopes: sortedScopes(input.scopes) },
        this.deps.now(),
      );
    } catch (error) {
      // Two creates of one email at once: the unique index decides, and the loser hears why.
      if ((error as { code?: string }).code === '23505') throw emailInUse(email);
      throw error;
    }
  }

  async list(teamId: string, page: AdminListQuery) {
    await this.requireTeam(teamId);
    return teamMembersRepository.page(this.deps.db, teamId, page);
  }

  /**
   * A new password ends every grant the member gave (whoever knew the old one may have signed in); new
   * scopes narrow their grants from the next request, since a token's scopes are read with the member's.
   */
  async update(
    teamId: string,
    memberId: string,
    patch: { password?: string | undefined; scopes?: string[] | undefined },
  ): Promise<AdminMember> {
    const now = this.deps.now();
    const passwordHash = patch.password === undefined ? undefined : await hashPassword(patch.password);
    const scopes = patch.scopes === undefined ? undefined : sortedScopes(patch.scopes);
    const member = await this.deps.db.transaction(async (trx) => {
      const updated = await teamMembersRepository.update(trx, teamId, memberId, { passwordHash, scopes }, now);
      if (!updated) throw notFound('Member');
      if (passwordHash) await oauthRepository.revokeMemberGrants(trx, teamId, memberId, now);
      return updated;
    });
    // This instance at once; the others when migration 032's notification reaches them.
    this.deps.keyCache?.invalidateTeam(teamId);
    return member;
  }

  async delete(teamId: string, memberId: string): Promise<{ id: string; deleted: true }> {
    if (!(await teamMembersRepository.delete(this.deps.db, teamId, memberId))) throw notFound('Member');
    this.deps.keyCache?.invalidateTeam(teamId);
    return { id: memberId, deleted: true };
  }

  async listGrants(teamId: string, page: AdminListQuery) {
    await this.requireTeam(teamId);
    return oauthRepository.pageGrants(this.deps.db, teamId, page);
  }

  async revokeGrant(teamId: string, grantId: string): Promise<AdminGrant> {
    await oauthRepository.revokeGrant(this.deps.db, grantId, this.deps.now(), teamId);
    this.deps.keyCache?.invalidateGrant(grantId);
    const grant = await oauthRepository.findGrant(this.deps.db, teamId, grantId);
    if (!grant) throw notFound('Grant');
    return grant;
  }

  /** Ends a grant for the connector itself: a reused code or refresh token, or an RFC 7009 revocation. */
  async endGrant(grantId: string): Promise<void> {
    await oauthRepository.revokeGrant(this.deps.db, grantId, this.deps.now());
    this.deps.keyCache?.invalidateGrant(grantId);
  }
}
