import type { CommunicationChannel, V1CommunicationMessage, V1CommunicationThread } from './schemas/communication.js';
import type { V1Customer } from './schemas/customer.js';

/** What a new message says: the bodies a draft or a campaign step gives it. */
export interface DraftContent {
  body?: string | null | undefined;
  subject?: string | null | undefined;
  htmlBody?: string | null | undefined;
  textBody?: string | null | undefined;
  mediaUrls?: string[] | undefined;
  campaignSendId?: string | null | undefined;
}

/** The customer's address on a channel (blank counts as none). */
export function addressOf(
  customer: Pick<V1Customer, 'email' | 'phone'>,
  channel: CommunicationChannel,
): string | undefined {
  return (channel === 'email' ? customer.email : customer.phone)?.trim() || undefined;
}

/**
 * A new outbound draft in a thread, as the reference server stores it and the mock models it: the thread's
 * customer and channel, addressed to `to`, an email's subject defaulting to the thread's, nothing sent yet.
 */
export function draftInThread(
  thread: Pick<V1CommunicationThread, 'id' | 'customerId' | 'channel' | 'subject'>,
  content: DraftContent,
  to: string | null,
): Omit<V1CommunicationMessage, 'id' | 'teamId' | 'createdAt' | 'updatedAt'> {
  return {
    threadId: thread.id,
    customerId: thread.customerId,
    channel: thread.channel,
    direction: 'outbound',
    from: null,
    to,
    body: content.body ?? null,
    subject: content.subject ?? (thread.channel === 'email' ? thread.subject : null),
    htmlBody: content.htmlBody ?? null,
    textBody: content.textBody ?? null,
    mediaUrls: content.mediaUrls ?? [],
    status: 'draft',
    provider: null,
    providerMessageSid: null,
    error: null,
    campaignSendId: content.campaignSendId ?? null,
    sentAt: null,
  };
}
