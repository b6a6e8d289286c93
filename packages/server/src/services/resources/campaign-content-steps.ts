import { randomUUID } from 'node:crypto';
import type {
  createCampaignContentStep,
  EndpointBody,
  StepContent,
  updateCampaignContentStep,
  V1CampaignContentStep,
} from '@vsf/contract';
import { validationFailed } from '../../errors/api-http-error.js';
import { contentStepsTable, templatesTable } from '../../repositories/tables.js';
import type { AuthContext } from '../auth-service.js';
import type { ServiceDeps } from '../service-deps.js';
import { TeamResource } from '../standard/team-resource.js';
import { refuseIfSent } from './campaign-sent.js';

const SENT_STEP = 'The step has been sent; it stays as the record of what customers received';

const present = <T extends object>(body: T) =>
  Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as Partial<T>;

/** A campaign's content steps; one that has been sent stays as the record of what customers received. */
export class CampaignContentSteps extends TeamResource<V1CampaignContentStep> {
  constructor(deps: ServiceDeps) {
    super(deps, 'marketing.campaigns.content');
  }

  async createStep(
    auth: AuthContext,
    campaignId: string,
    body: EndpointBody<typeof createCampaignContentStep>,
  ): Promise<V1CampaignContentStep> {
    const db = this.deps.db;
    const { teamId } = auth;
    await this.parents(teamId, [campaignId]);
    let content: StepContent = { ...present(body.content ?? {}) };
    if (body.templateId) {
      const template = await templatesTable.findById(db, teamId, body.templateId);
      if (!template) throw validationFailed([{ path: 'templateId', message: 'Template not found' }]);
      if (template.channel !== body.type) {
        throw validationFailed([
          { path: 'templateId', message: `The template is for ${template.channel}; this step is ${body.type}` },
        ]);
      }
      content = { subject: template.subject, body: template.body, htmlBody: template.htmlBody, ...content };
    }
    checkStepContent(body.type, content);
    const last = await contentStepsTable
      .scoped(db, teamId)
      .where(contentStepsTable.column('campaignId'), campaignId)
      .max({ max: 'order' })
      .first();
    const order = body.order ?? (last?.max == null ? 0 : Number(last.max) + 1);
    return contentStepsTable.insert(
      db,
      teamId,
      {
        id: randomUUID(),
        campaignId,
        type: body.type,
        name: body.name,
        order,
        scheduledAt: body.scheduledAt ? new Date(body.scheduledAt).toISOString() : null,
        templateId: body.templateId ?? null,
        content,
      },
      this.deps.now(),
    );
  }

  override async update(
    teamId: string,
    campaign: unknown,
    stepId: unknown,
    payload: unknown,
  ): Promise<V1CampaignContentStep> {
    const body = payload as EndpointBody<typeof updateCampaignContentStep>;
    const id = stepId as string;
    const step = await this.get(teamId, campaign as string, id);
    await refuseIfSent(this.deps.db, teamId, 'contentStepId', id, SENT_STEP);
    const content = body.content ? { ...step.content, ...present(body.content) } : undefined;
    if (content) checkStepContent(step.type, content);
    const changes = {
      ...body,
      ...(content ? { content } : {}),
      ...(body.scheduledAt ? { scheduledAt: new Date(body.scheduledAt).toISOString() } : {}),
    };
    return (await contentStepsTable.update(
      this.deps.db,
      teamId,
      id,
      changes,
      this.deps.now(),
    )) as V1CampaignContentStep;
  }

  override async delete(teamId: string, campaignId: string, id: string) {
    await this.get(teamId, campaignId, id);
    await refuseIfSent(this.deps.db, teamId, 'contentStepId', id, SENT_STEP);
    return super.delete(teamId, campaignId, id);
  }
}

/** What a step may hold on its channel; whether it has enough to send is checked when it is sent. */
function checkStepContent(type: 'email' | 'sms', content: StepContent) {
  if (type === 'sms' && (content.subject || content.htmlBody))
    throw validationFailed([
      { path: 'content', message: 'SMS steps send only content.body; remove subject and htmlBody' },
    ]);
}
