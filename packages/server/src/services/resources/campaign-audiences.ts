import type {
  AudienceFilter,
  EndpointQuery,
  listCampaignAudienceMembers,
  V1AudienceMember,
  V1CampaignAudience,
} from '@vsf/contract';
import { customersTable, locationsTable } from '../../repositories/tables.js';
import type { ListResult } from '../../repositories/team-scoped-table.js';
import { matchAudience, prefers } from '../campaign-audience-query.js';
import { checkReferences } from '../check-references.js';
import type { ServiceDeps } from '../service-deps.js';
import { TeamResource } from '../standard/team-resource.js';
import { refuseIfSent } from './campaign-sent.js';

/** A campaign's audiences: a filter over the team's customers, resolved when a send goes out. */
export class CampaignAudiences extends TeamResource<V1CampaignAudience> {
  constructor(deps: ServiceDeps) {
    super(deps, 'marketing.campaigns.audiences');
  }

  override async create(teamId: string, campaignId: unknown, payload: unknown): Promise<V1CampaignAudience> {
    await this.parents(teamId, [campaignId]);
    await this.checkFilter(teamId, (payload as { filter: AudienceFilter }).filter);
    return super.create(teamId, campaignId, payload);
  }

  override async update(
    teamId: string,
    campaignId: unknown,
    id: unknown,
    payload: unknown,
  ): Promise<V1CampaignAudience> {
    await this.get(teamId, campaignId as string, id as string);
    const { filter } = payload as { filter?: AudienceFilter };
    if (filter) await this.checkFilter(teamId, filter);
    return super.update(teamId, campaignId, id, payload);
  }

  override async delete(teamId: string, campaignId: string, id: string) {
    await this.get(teamId, campaignId, id);
    const message = 'A send went to this audience; it stays as the record of who was messaged';
    await refuseIfSent(this.deps.db, teamId, 'audienceId', id, message);
    return super.delete(teamId, campaignId, id);
  }

  /** Who an audience reaches now, resolved as a send resolves it, a page at a time. */
  async listMembers(
    teamId: string,
    campaignId: string,
    audienceId: string,
    query: EndpointQuery<typeof listCampaignAudienceMembers>,
  ): Promise<ListResult<V1AudienceMember>> {
    const { db } = this.deps;
    const audience = await this.get(teamId, campaignId, audienceId);
    const page = await customersTable.list(db, teamId, query, (q) => {
      matchAudience(db, q, audience.filter);
      if (query.allowsMarketing !== undefined)
        q.whereRaw(query.allowsMarketing ? '?' : 'not ?', [prefers(db, 'marketing')]);
    });
    // Filtered on consent, the page already says it; otherwise one query for the page's consenting ids.
    const allows =
      query.allowsMarketing ??
      new Set(
        (
          (await customersTable
            .scoped(db, teamId)
            .whereIn(
              'customers.id',
              page.records.map((c) => c.id),
            )
            .whereRaw('?', [prefers(db, 'marketing')])
            .select('customers.id')) as { id: string }[]
        ).map((row) => row.id),
      );
    return {
      ...page,
      records: page.records.map((c) => ({
        ...c,
        allowsMarketing: typeof allows === 'boolean' ? allows : allows.has(c.id),
      })),
    };
  }

  private async checkFilter(teamId: string, filter: AudienceFilter) {
    await checkReferences(this.deps.db, teamId, [
      { path: 'filter.locationId', id: filter.locationId, table: locationsTable, resource: 'Location' },
    ]);
  }
}
