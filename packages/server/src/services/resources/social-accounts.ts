import type { EndpointBody, updateSocialAccount, V1SocialAccount } from '@vsf/contract';
import { socialAccountsTable, socialPostsTable } from '../../repositories/tables.js';
import type { ServiceDeps } from '../service-deps.js';
import { mapConflicts } from '../standard/constraint-conflicts.js';
import { TeamResource } from '../standard/team-resource.js';

/** Connected social accounts; a post carries its account's network, so a network change follows to them. */
export class SocialAccounts extends TeamResource<V1SocialAccount> {
  constructor(deps: ServiceDeps) {
    super(deps, 'marketing.socialAccounts', {
      defaults: { displayName: null, profileUrl: null, isActive: true },
      conflicts: {
        duplicate: 'The team already has this account on this network',
      },
    });
  }

  override async update(teamId: string, accountId: unknown, payload: unknown): Promise<V1SocialAccount> {
    const body = payload as EndpointBody<typeof updateSocialAccount>;
    const id = accountId as string;
    await this.get(teamId, id);
    return this.deps.db.transaction((trx) =>
      mapConflicts(this.writeConflicts(body), async () => {
        const now = this.deps.now();
        const account = (await socialAccountsTable.update(trx, teamId, id, body, now)) as V1SocialAccount;
        // Posts carry their account's network for calendars and filters.
        if (body.network)
          await socialPostsTable
            .scoped(trx, teamId)
            .where(socialPostsTable.column('socialAccountId'), id)
            .update({ network: body.network, updated_at: now });
        return account;
      }),
    );
  }
}
