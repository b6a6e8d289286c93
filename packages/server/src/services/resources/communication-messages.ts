import { randomUUID } from 'node:crypto';
import {
  addressOf,
  type CommunicationChannel,
  type createCommunicationMessage,
  type DraftContent,
  draftInThread,
  type EndpointBody,
  type updateCommunicationMessage,
  type V1CommunicationMessage,
  type V1CommunicationThread,
  type V1Customer,
} from '@vsf/contract';
import { conflict, validationFailed } from '../../errors/api-http-error.js';
import { checkTeamMediaUrls } from '../../media/team-media-urls.js';
import { customersTable, messagesTable, threadsTable } from '../../repositories/tables.js';
import { type DeliveryDeps, deliverMessage } from '../message-delivery.js';
import { messageSendProblems, type SendableContent } from '../send-readiness.js';
import { TeamResource } from '../standard/team-resource.js';

/** A thread's messages: drafts until sent, then records of what was sent. Campaign sends write through it too. */
export class CommunicationMessages extends TeamResource<V1CommunicationMessage> {
  constructor(protected override readonly deps: DeliveryDeps) {
    super(deps, 'communicationThreads.messages');
  }

  /** The email and SMS providers messages go through. */
  get providers() {
    return this.deps.messaging;
  }

  /** The customer's newest thread on a channel, or a new one (campaign sends write into it). */
  async threadFor(teamId: string, customerId: string, channel: CommunicationChannel, subject: string | null) {
    const row = await threadsTable
      .scoped(this.deps.db, teamId)
      .where({ 'communication_threads.customer_id': customerId, 'communication_threads.channel': channel })
      .orderBy([
        { column: 'communication_threads.updated_at', order: 'desc' },
        { column: 'communication_threads.id', order: 'desc' },
      ])
      .first();
    if (row) return threadsTable.toRecord(row);
    return threadsTable.insert(
      this.deps.db,
      teamId,
      { id: randomUUID(), customerId, channel, subject, lastMessageAt: null },
      this.deps.now(),
    );
  }

  override async create(teamId: string, threadId: unknown, payload: unknown): Promise<V1CommunicationMessage> {
    const body = payload as EndpointBody<typeof createCommunicationMessage>;
    await this.parents(teamId, [threadId]);
    const thread = (await threadsTable.findById(this.deps.db, teamId, threadId as string)) as V1CommunicationThread;
    if (body.send) refuseUnsendable(thread.channel, body);
    // A draft may wait for its address (the spec: a valid body is stored as a draft); a send needs it now.
    const draft = await this.writeDraft(teamId, thread, body, { needsRecipient: body.send });
    return body.send ? ((await deliverMessage(this.deps, teamId, draft)) ?? draft) : draft;
  }

  /** A draft goes to the customer's address of the moment it is sent, not of when it was written. */
  private async readdress(teamId: string, message: V1CommunicationMessage): Promise<V1CommunicationMessage> {
    const customer = (await customersTable.findById(this.deps.db, teamId, message.customerId)) as V1Customer;
    const to = this.recipientOf(customer, message.channel);
    if (to === message.to) return message;
    return (await messagesTable.update(
      this.deps.db,
      teamId,
      message.id,
      { to },
      this.deps.now(),
    )) as V1CommunicationMessage;
  }

  private recipientOf(customer: V1Customer, channel: CommunicationChannel): string {
    const to = addressOf(customer, channel);
    if (to) return to;
    const field = channel === 'email' ? 'email address' : 'phone number';
    throw validationFailed([
      {
        path: 'threadId',
        message: `The customer has no ${field} for this ${channel} thread; add one with PATCH /customers/${customer.id}`,
      },
    ]);
  }

  /**
   * Stores a draft in a thread, addressed to the customer's address on its channel, or to none (`to` null)
   * while they have none: the address is checked when the draft is sent. `needsRecipient` (a message sent
   * at once, a campaign send) refuses the draft instead, 400 naming what to add, storing nothing.
   */
  async writeDraft(
    teamId: string,
    thread: V1CommunicationThread,
    content: DraftContent,
    options: { needsRecipient: boolean } = { needsRecipient: true },
  ): Promise<V1CommunicationMessage> {
    const db = this.deps.db;
    const customer = (await customersTable.findById(db, teamId, thread.customerId)) as V1Customer;
    const to = options.needsRecipient
      ? this.recipientOf(customer, thread.channel)
      : (addressOf(customer, thread.channel) ?? null);
    await checkTeamMediaUrls(db, teamId, content.mediaUrls);
    const now = this.deps.now();
    const message = await messagesTable.insert(
      db,
      teamId,
      { id: randomUUID(), ...draftInThread(thread, content, to) },
      now,
    );
    await threadsTable.update(db, teamId, thread.id, { lastMessageAt: now.toISOString() }, now);
    return message;
  }

  override async update(
    teamId: string,
    threadId: unknown,
    id: unknown,
    payload: unknown,
  ): Promise<V1CommunicationMessage> {
    const body = payload as EndpointBody<typeof updateCommunicationMessage>;
    const message = await this.get(teamId, threadId as string, id as string);
    if (message.status !== 'draft')
      throw conflict(`The message is ${message.status}, not a draft; write a new message instead`);
    await checkTeamMediaUrls(this.deps.db, teamId, body.mediaUrls);
    return (await messagesTable.update(
      this.deps.db,
      teamId,
      message.id,
      body,
      this.deps.now(),
    )) as V1CommunicationMessage;
  }

  override async delete(teamId: string, threadId: string, id: string): Promise<{ id: string; deleted: true }> {
    const message = await this.get(teamId, threadId, id);
    if (message.status !== 'draft')
      throw conflict(`The message is ${message.status}; only drafts can be deleted, sent messages are records`);
    // Only while still a draft: a concurrent send that claimed it first wins.
    const gone = await messagesTable
      .scoped(this.deps.db, teamId)
      .where({ 'communication_messages.id': id, 'communication_messages.status': 'draft' })
      .delete()
      .returning('id');
    if (gone.length === 0) throw conflict('The message was sent meanwhile; sent messages are records');
    return { id, deleted: true };
  }

  async send(teamId: string, threadId: string, id: string): Promise<V1CommunicationMessage> {
    let message = await this.get(teamId, threadId, id);
    if (message.status === 'draft' || message.status === 'failed') {
      refuseUnsendable(message.channel, message);
      message = await this.readdress(teamId, message);
    }
    const delivered = message.status === 'sent' ? undefined : await deliverMessage(this.deps, teamId, message);
    if (delivered) return delivered;
    const now = await this.get(teamId, threadId, id);
    if (now.status === 'sent') return now;
    throw conflict('The message is already with its provider; wait for it to be sent or fail');
  }
}

/** A draft may be incomplete; sending one that has nothing for its channel is a 400 that names what to add. */
function refuseUnsendable(channel: CommunicationChannel, content: SendableContent): void {
  const problems = messageSendProblems(channel, content);
  if (problems.length > 0) throw validationFailed(problems);
}
