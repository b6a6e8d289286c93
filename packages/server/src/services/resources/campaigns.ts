import type { EndpointBody, updateCampaign, V1Campaign } from '@vsf/contract';
import { validationFailed } from '../../errors/api-http-error.js';
import { audiencesTable, contentStepsTable } from '../../repositories/tables.js';
import type { ServiceDeps } from '../service-deps.js';
import { type Body, TeamResource } from '../standard/team-resource.js';
import { refuseIfSent } from './campaign-sent.js';

const iso = (value: unknown) => (typeof value === 'string' ? new Date(value).toISOString() : undefined);
const writeTimes = (body: Body) => ({
  ...body,
  startsAt: body.startsAt === null ? null : iso(body.startsAt),
  endsAt: body.endsAt === null ? null : iso(body.endsAt),
});

/** Campaigns; one that has sent messages stays as their record (archive it instead of deleting). */
export class Campaigns extends TeamResource<V1Campaign> {
  constructor(deps: ServiceDeps) {
    super(deps, 'marketing.campaigns', {
      defaults: { description: null, status: 'draft', startsAt: null, endsAt: null },
      write: writeTimes,
    });
  }

  override async update(teamId: string, campaignId: unknown, payload: unknown): Promise<V1Campaign> {
    const body = payload as EndpointBody<typeof updateCampaign>;
    const current = await this.get(teamId, campaignId as string);
    const startsAt = body.startsAt === undefined ? current.startsAt : body.startsAt;
    const endsAt = body.endsAt === undefined ? current.endsAt : body.endsAt;
    if (startsAt && endsAt && Date.parse(endsAt) <= Date.parse(startsAt))
      throw validationFailed([{ path: 'endsAt', message: 'endsAt must be after startsAt' }]);
    return super.update(teamId, campaignId, body);
  }

  override async delete(teamId: string, id: string) {
    await this.get(teamId, id);
    const message = 'The campaign has sent messages; archive it instead (PATCH status: archived)';
    await refuseIfSent(this.deps.db, teamId, 'campaignId', id, message);
    await this.deps.db.transaction(async (trx) => {
      for (const table of [contentStepsTable, audiencesTable]) {
        await table.scoped(trx, teamId).where(table.column('campaignId'), id).delete();
      }
      await this.table.delete(trx, teamId, id);
    });
    return { id, deleted: true as const };
  }
}
