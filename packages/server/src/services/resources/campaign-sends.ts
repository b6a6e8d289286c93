import { randomUUID } from 'node:crypto';
import {
  addressOf,
  type createCampaignSend,
  type EndpointBody,
  type V1CampaignContentStep,
  type V1CampaignSend,
} from '@vsf/contract';
import { validationFailed } from '../../errors/api-http-error.js';
import { audiencesTable, campaignSendsTable, contentStepsTable, messagesTable } from '../../repositories/tables.js';
import { resolveAudience } from '../campaign-audience-query.js';
import { type DeliveryDeps, deliverMessage } from '../message-delivery.js';
import { renderedStepProblems, renderStepFor } from '../render-step.js';
import { stepSendProblems } from '../send-readiness.js';
import { TeamResource } from '../standard/team-resource.js';
import { CommunicationMessages } from './communication-messages.js';

/** At most this many recipients' problems are listed in one 400: enough to see the pattern. */
const MAX_RECIPIENT_PROBLEMS = 20;

/** A campaign's sends: one per content step, to one audience, each message through the customer's thread. */
export class CampaignSends extends TeamResource<V1CampaignSend> {
  private readonly communications: CommunicationMessages;

  constructor(protected override readonly deps: DeliveryDeps) {
    super(deps, 'marketing.campaigns.sends');
    this.communications = new CommunicationMessages(deps);
  }

  /**
   * Sends a step to an audience, once. The send row is written first (its unique step id is the lock), then
   * one message per consenting recipient; a rerun of an interrupted send skips customers already messaged.
   */
  override async create(teamId: string, campaign: unknown, payload: unknown): Promise<V1CampaignSend> {
    const body = payload as EndpointBody<typeof createCampaignSend>;
    const campaignId = campaign as string;
    const db = this.deps.db;
    await this.parents(teamId, [campaignId]);
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
}
