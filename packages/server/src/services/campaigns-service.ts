import { randomUUID } from 'node:crypto';
import type {
  AudienceFilter,
  createCampaign,
  createCampaignAudience,
  createCampaignContentStep,
  createCampaignSend,
  EndpointBody,
  EndpointQuery,
  listCampaignAudienceMembers,
  listCampaignAudiences,
  listCampaignContentSteps,
  listCampaignSends,
  listCampaigns,
  StepContent,
  updateCampaign,
  updateCampaignAudience,
  updateCampaignContentStep,
  V1AudienceMember,
  V1Campaign,
  V1CampaignAudience,
  V1CampaignContentStep,
  V1CampaignSend,
  V1Customer,
} from '@vsf/contract';
import type { Knex } from 'knex';
import { conflict, notFound, validationFailed } from '../errors/api-http-error.js';
import {
  audiencesTable,
  campaignSendsTable,
  campaignsTable,
  contentStepsTable,
  templatesTable,
} from '../repositories/campaign-tables.js';
import { messagesTable } from '../repositories/communication-tables.js';
import { customersTable, locationsTable } from '../repositories/tables.js';
import type { Executor, ListResult } from '../repositories/team-scoped-table.js';
import type { AuthContext } from './auth-service.js';
import { checkReferences } from './check-references.js';
import { type DeliveryDeps, deliverMessage } from './message-delivery.js';
import { renderedStepProblems, renderStepFor } from './render-step.js';
import { addressOf, CommunicationMessages } from './resources/communication-messages.js';
import { stepSendProblems } from './send-readiness.js';

/** At most this many recipients' problems are listed in one 400: enough to see the pattern. */
const MAX_RECIPIENT_PROBLEMS = 20;

const deleted = (id: string) => ({ id, deleted: true as const });
const present = <T extends object>(body: T) =>
  Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as Partial<T>;

/** `exists` a contact of the customer row in scope who opted in to `preference`. */
function prefers(db: Executor, preference: string) {
  return db.raw(
    `exists (select 1 from contacts c where c.team_id = customers.team_id and c.customer_id = customers.id and (c.communication_preferences->>?) = 'true')`,
    [preference],
  );
}

/** Narrows a query over the team's customers to those an audience filter matches; soft-deleted ones never do. */
function matchAudience(db: Executor, query: Knex.QueryBuilder, filter: AudienceFilter): void {
  query.whereNull('customers.deleted_at');
  if (filter.locationId) query.where('customers.location_id', filter.locationId);
  if (filter.isActive !== undefined) query.where('customers.is_active', filter.isActive);
  if (filter.customerIds) query.whereIn('customers.id', filter.customerIds);
  if (filter.contactPreference) query.whereRaw('?', [prefers(db, filter.contactPreference)]);
  if (filter.hasCarsForSale !== undefined) {
    const forSale = db.raw(
      'exists (select 1 from cars where cars.team_id = customers.team_id and cars.customer_id = customers.id and cars.is_for_sale)',
    );
    query.whereRaw(filter.hasCarsForSale ? '?' : 'not ?', [forSale]);
  }
}

/** The team's customers an audience filter matches now, with whether each allows marketing. */
export async function resolveAudience(
  db: Executor,
  teamId: string,
  filter: AudienceFilter,
): Promise<(V1Customer & { allowsMarketing: boolean })[]> {
  const query = customersTable
    .scoped(db, teamId)
    .select('customers.*', db.raw('? as allows_marketing', [prefers(db, 'marketing')]))
    .orderBy('customers.id');
  matchAudience(db, query, filter);
  const rows = (await query) as Record<string, unknown>[];
  return rows.map((row) => ({ ...customersTable.toRecord(row), allowsMarketing: row.allows_marketing === true }));
}

export class CampaignsService {
  private readonly communications: CommunicationMessages;

  constructor(private readonly deps: DeliveryDeps) {
    this.communications = new CommunicationMessages(deps);
  }

  list(teamId: string, query: EndpointQuery<typeof listCampaigns>): Promise<ListResult<V1Campaign>> {
    return campaignsTable.list(this.deps.db, teamId, query, (q) => {
      if (query.status) q.where('campaigns.status', query.status);
    });
  }

  async get(teamId: string, id: string): Promise<V1Campaign> {
    const campaign = await campaignsTable.findById(this.deps.db, teamId, id);
    if (!campaign) throw notFound('Campaign');
    return campaign;
  }

  create(teamId: string, body: EndpointBody<typeof createCampaign>): Promise<V1Campaign> {
    return campaignsTable.insert(
      this.deps.db,
      teamId,
      {
        id: randomUUID(),
        name: body.name,
        description: body.description ?? null,
        status: body.status ?? 'draft',
        startsAt: body.startsAt ? new Date(body.startsAt).toISOString() : null,
        endsAt: body.endsAt ? new Date(body.endsAt).toISOString() : null,
      },
      this.deps.now(),
    );
  }

  async update(teamId: string, id: string, body: EndpointBody<typeof updateCampaign>): Promise<V1Campaign> {
    const current = await this.get(teamId, id);
    const startsAt = body.startsAt === undefined ? current.startsAt : body.startsAt;
    const endsAt = body.endsAt === undefined ? current.endsAt : body.endsAt;
    if (startsAt && endsAt && Date.parse(endsAt) <= Date.parse(startsAt))
      throw validationFailed([{ path: 'endsAt', message: 'endsAt must be after startsAt' }]);
    const changes = {
      ...body,
      ...(body.startsAt ? { startsAt: new Date(body.startsAt).toISOString() } : {}),
      ...(body.endsAt ? { endsAt: new Date(body.endsAt).toISOString() } : {}),
    };
    return (await campaignsTable.update(this.deps.db, teamId, id, changes, this.deps.now())) as V1Campaign;
  }

  async delete(teamId: string, id: string) {
    await this.get(teamId, id);
    if (await campaignSendsTable.scoped(this.deps.db, teamId).where('campaign_sends.campaign_id', id).first('id'))
      throw conflict('The campaign has sent messages; archive it instead (PATCH status: archived)');
    await this.deps.db.transaction(async (trx: Knex.Transaction) => {
      await contentStepsTable.scoped(trx, teamId).where('campaign_content_steps.campaign_id', id).delete();
      await audiencesTable.scoped(trx, teamId).where('campaign_audiences.campaign_id', id).delete();
      await campaignsTable.delete(trx, teamId, id);
    });
    return deleted(id);
  }

  async listAudiences(
    teamId: string,
    campaignId: string,
    query: EndpointQuery<typeof listCampaignAudiences>,
  ): Promise<ListResult<V1CampaignAudience>> {
    await this.get(teamId, campaignId);
    return audiencesTable.list(this.deps.db, teamId, query, (q) =>
      q.where('campaign_audiences.campaign_id', campaignId),
    );
  }

  async getAudience(teamId: string, campaignId: string, id: string): Promise<V1CampaignAudience> {
    const audience = await audiencesTable.findById(this.deps.db, teamId, id);
    if (!audience || audience.campaignId !== campaignId) throw notFound('Audience');
    return audience;
  }

  /** Who an audience reaches now, resolved as a send resolves it, a page at a time. */
  async listAudienceMembers(
    teamId: string,
    campaignId: string,
    audienceId: string,
    query: EndpointQuery<typeof listCampaignAudienceMembers>,
  ): Promise<ListResult<V1AudienceMember>> {
    const { db } = this.deps;
    const audience = await this.getAudience(teamId, campaignId, audienceId);
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

  async createAudience(
    teamId: string,
    campaignId: string,
    body: EndpointBody<typeof createCampaignAudience>,
  ): Promise<V1CampaignAudience> {
    await this.get(teamId, campaignId);
    await this.checkFilter(teamId, body.filter);
    return audiencesTable.insert(
      this.deps.db,
      teamId,
      { id: randomUUID(), campaignId, name: body.name, filter: body.filter },
      this.deps.now(),
    );
  }

  async updateAudience(
    teamId: string,
    campaignId: string,
    id: string,
    body: EndpointBody<typeof updateCampaignAudience>,
  ): Promise<V1CampaignAudience> {
    await this.getAudience(teamId, campaignId, id);
    if (body.filter) await this.checkFilter(teamId, body.filter);
    return (await audiencesTable.update(this.deps.db, teamId, id, body, this.deps.now())) as V1CampaignAudience;
  }

  async deleteAudience(teamId: string, campaignId: string, id: string) {
    await this.getAudience(teamId, campaignId, id);
    if (await campaignSendsTable.scoped(this.deps.db, teamId).where('campaign_sends.audience_id', id).first('id'))
      throw conflict('A send went to this audience; it stays as the record of who was messaged');
    await audiencesTable.delete(this.deps.db, teamId, id);
    return deleted(id);
  }

  async listSteps(
    teamId: string,
    campaignId: string,
    query: EndpointQuery<typeof listCampaignContentSteps>,
  ): Promise<ListResult<V1CampaignContentStep>> {
    await this.get(teamId, campaignId);
    return contentStepsTable.list(this.deps.db, teamId, query, (q) =>
      q.where('campaign_content_steps.campaign_id', campaignId),
    );
  }

  async getStep(teamId: string, campaignId: string, id: string): Promise<V1CampaignContentStep> {
    const step = await contentStepsTable.findById(this.deps.db, teamId, id);
    if (!step || step.campaignId !== campaignId) throw notFound('Content step');
    return step;
  }

  async createStep(
    auth: AuthContext,
    campaignId: string,
    body: EndpointBody<typeof createCampaignContentStep>,
  ): Promise<V1CampaignContentStep> {
    const db = this.deps.db;
    const { teamId } = auth;
    await this.get(teamId, campaignId);
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
      .where('campaign_content_steps.campaign_id', campaignId)
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

  async updateStep(
    teamId: string,
    campaignId: string,
    id: string,
    body: EndpointBody<typeof updateCampaignContentStep>,
  ): Promise<V1CampaignContentStep> {
    const step = await this.getStep(teamId, campaignId, id);
    await this.refuseIfSent(teamId, id);
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

  async deleteStep(teamId: string, campaignId: string, id: string) {
    await this.getStep(teamId, campaignId, id);
    await this.refuseIfSent(teamId, id);
    await contentStepsTable.delete(this.deps.db, teamId, id);
    return deleted(id);
  }

  async listSends(
    teamId: string,
    campaignId: string,
    query: EndpointQuery<typeof listCampaignSends>,
  ): Promise<ListResult<V1CampaignSend>> {
    await this.get(teamId, campaignId);
    return campaignSendsTable.list(this.deps.db, teamId, query, (q) =>
      q.where('campaign_sends.campaign_id', campaignId),
    );
  }

  async getSend(teamId: string, campaignId: string, id: string): Promise<V1CampaignSend> {
    const send = await campaignSendsTable.findById(this.deps.db, teamId, id);
    if (!send || send.campaignId !== campaignId) throw notFound('Send');
    return send;
  }

  /**
   * Sends a step to an audience, once. The send row is written first (its unique step id is the lock), then
   * one message per consenting recipient; a rerun of an interrupted send skips customers already messaged.
   */
  async createSend(
    teamId: string,
    campaignId: string,
    body: EndpointBody<typeof createCampaignSend>,
  ): Promise<V1CampaignSend> {
    const db = this.deps.db;
    await this.get(teamId, campaignId);
    const step = await contentStepsTable.findById(db, teamId, body.contentStepId);
    const audience = await audiencesTable.findById(db, teamId, body.audienceId);
    const problems = [
      ...(step?.campaignId === campaignId
        ? []
        : [{ path: 'contentStepId', message: 'Content step not found in this campaign' }]),
      ...(audience?.campaignId === campaignId
        ? []
        : [{ path: 'audienceId', message: 'Audience not found in this campaign' }]),
    ];
    if (problems.length > 0 || !step || !audience) throw validationFailed(problems);

    const existing = await this.sendOfStep(teamId, step.id);
    if (existing?.status === 'completed') return existing;
    // A draft step may be incomplete; sending it is where it must be whole (nothing written before this).
    const incomplete = stepSendProblems(step.type, step.content);
    if (incomplete.length > 0) throw validationFailed(incomplete);

    const recipients = await resolveAudience(db, teamId, audience.filter);
    // Resuming an interrupted send: those it already messaged are done, whatever their rendering says now.
    const done = existing ? await this.messagedIn(teamId, existing.id) : new Set<string>();
    const outgoing = recipients
      .filter((customer) => customer.allowsMarketing && addressOf(customer, step.type) && !done.has(customer.id))
      .map((customer) => ({ customer, rendered: renderStepFor(step.type, step.content, customer) }));
    const unsendable = outgoing.flatMap(({ customer, rendered }) =>
      renderedStepProblems(customer.id, step.type, rendered),
    );
    if (unsendable.length > 0) throw validationFailed(unsendable.slice(0, MAX_RECIPIENT_PROBLEMS));

    const send = existing ?? (await this.startSend(teamId, campaignId, step, audience.id));
    if (send.status === 'completed') return send;
    const messaged = await this.messagedIn(teamId, send.id);
    for (const { customer, rendered } of outgoing) {
      if (messaged.has(customer.id)) continue;
      const thread = await this.communications.threadFor(teamId, customer.id, step.type, rendered.subject);
      const draft = await this.communications.writeDraft(teamId, thread, { ...rendered, campaignSendId: send.id });
      await deliverMessage(this.deps, teamId, draft);
    }
    return this.finishSend(teamId, send.id, recipients.length);
  }

  /** The customers a send has written a message to so far. */
  private async messagedIn(teamId: string, sendId: string): Promise<Set<string>> {
    return new Set(
      (await messagesTable
        .scoped(this.deps.db, teamId)
        .where('communication_messages.campaign_send_id', sendId)
        .pluck('communication_messages.customer_id')) as string[],
    );
  }

  private async sendOfStep(teamId: string, stepId: string): Promise<V1CampaignSend | undefined> {
    const row = await campaignSendsTable
      .scoped(this.deps.db, teamId)
      .where('campaign_sends.content_step_id', stepId)
      .first();
    return row ? campaignSendsTable.toRecord(row) : undefined;
  }

  private async startSend(teamId: string, campaignId: string, step: V1CampaignContentStep, audienceId: string) {
    try {
      return await campaignSendsTable.insert(
        this.deps.db,
        teamId,
        {
          id: randomUUID(),
          campaignId,
          contentStepId: step.id,
          audienceId,
          channel: step.type,
          status: 'sending',
          recipientCount: 0,
          sentCount: 0,
          failedCount: 0,
          skippedCount: 0,
        },
        this.deps.now(),
      );
    } catch (error) {
      // A concurrent request started this step's send first: answer with that one.
      const winner = await this.sendOfStep(teamId, step.id);
      if (winner) return winner;
      throw error;
    }
  }

  /** Counts come from the stored messages, so a resumed send reports the whole of it. */
  private async finishSend(teamId: string, sendId: string, recipientCount: number): Promise<V1CampaignSend> {
    const rows = (await messagesTable
      .scoped(this.deps.db, teamId)
      .where('communication_messages.campaign_send_id', sendId)
      .groupBy('communication_messages.status')
      .select('communication_messages.status')
      .count({ count: '*' })) as { status: string; count: string | number }[];
    const count = (status: string) => Number(rows.find((r) => r.status === status)?.count ?? 0);
    const messages = rows.reduce((sum, r) => sum + Number(r.count), 0);
    return (await campaignSendsTable.update(
      this.deps.db,
      teamId,
      sendId,
      {
        status: 'completed',
        recipientCount,
        sentCount: count('sent'),
        failedCount: count('failed') + count('queued') + count('draft'),
        skippedCount: Math.max(recipientCount - messages, 0),
      },
      this.deps.now(),
    )) as V1CampaignSend;
  }

  private async refuseIfSent(teamId: string, stepId: string) {
    if (await this.sendOfStep(teamId, stepId))
      throw conflict('The step has been sent; it stays as the record of what customers received');
  }

  private async checkFilter(teamId: string, filter: AudienceFilter) {
    await checkReferences(this.deps.db, teamId, [
      { path: 'filter.locationId', id: filter.locationId, table: locationsTable, resource: 'Location' },
    ]);
  }
}

/** What a step may hold on its channel; whether it has enough to send is checked when it is sent. */
function checkStepContent(type: 'email' | 'sms', content: StepContent) {
  if (type === 'sms' && (content.subject || content.htmlBody))
    throw validationFailed([
      { path: 'content', message: 'SMS steps send only content.body; remove subject and htmlBody' },
    ]);
}
