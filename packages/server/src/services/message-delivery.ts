import { mediaIdOf, type V1CommunicationMessage } from '@vsf/contract';
import type { BlobStore } from '../media/blob-store.js';
import type {
  DeliveryProvider,
  MessageAttachment,
  MessagingProviders,
  OutboundMessage,
} from '../providers/messaging/delivery-provider.js';
import { mediaTable, messagesTable, threadsTable } from '../repositories/tables.js';
import type { Executor } from '../repositories/team-scoped-table.js';

export interface DeliveryDeps {
  db: Executor;
  now: () => Date;
  blobs: BlobStore;
  messaging: MessagingProviders;
}

/**
 * Hands one stored message to its channel's provider and records the outcome on the row. The row exists
 * (as `queued`) before the provider is called, so a crash or a refusal never loses the message: it stays
 * `queued` or becomes `failed` with the provider's error, and can be sent again. Undefined when the message
 * is not a draft or failed one any more (another request is delivering or delivered it).
 */
export async function deliverMessage(
  deps: DeliveryDeps,
  teamId: string,
  message: V1CommunicationMessage,
): Promise<V1CommunicationMessage | undefined> {
  const provider: DeliveryProvider = deps.messaging[message.channel];
  // Claiming the row first means two concurrent sends of one draft deliver it once.
  const claimed = await messagesTable
    .scoped(deps.db, teamId)
    .where('communication_messages.id', message.id)
    .whereIn('communication_messages.status', ['draft', 'failed'])
    .update({ status: 'queued', error: null, updated_at: deps.now() })
    .returning('id');
  if (claimed.length === 0) return undefined;
  let outcome: Partial<V1CommunicationMessage>;
  try {
    const outbound = await toOutbound(deps, teamId, message);
    const receipt = await provider.deliver(outbound);
    outcome = {
      status: 'sent',
      provider: receipt.provider,
      providerMessageSid: receipt.providerMessageSid,
      from: receipt.from,
      sentAt: deps.now().toISOString(),
      error: null,
    };
  } catch (error) {
    outcome = { status: 'failed', provider: provider.name, error: (error as Error).message || String(error) };
  }
  const now = deps.now();
  const updated = (await messagesTable.update(deps.db, teamId, message.id, outcome, now)) as V1CommunicationMessage;
  await threadsTable.update(deps.db, teamId, message.threadId, { lastMessageAt: now.toISOString() }, now);
  return updated;
}

async function toOutbound(
  deps: DeliveryDeps,
  teamId: string,
  message: V1CommunicationMessage,
): Promise<OutboundMessage> {
  const attachments: MessageAttachment[] = [];
  const mediaUrls: string[] = [];
  for (const reference of message.mediaUrls) {
    const mediaId = mediaIdOf(reference);
    if (!mediaId) {
      mediaUrls.push(reference);
      continue;
    }
    const row = await mediaTable.findById(deps.db, teamId, mediaId);
    const bytes = row ? await deps.blobs.get(row.storageKey) : undefined;
    if (!row || !bytes) throw new Error(`${reference} no longer exists; remove it from mediaUrls`);
    attachments.push({ filename: row.filename, contentType: row.contentType, content: bytes });
  }
  // Every send readdresses the message first and refuses one without an address: this only guards that.
  if (!message.to) throw new Error('The customer has no address on this channel; add one and send it again');
  return {
    id: message.id,
    channel: message.channel,
    to: message.to,
    subject: message.subject,
    text: message.textBody ?? message.body,
    html: message.htmlBody,
    mediaUrls,
    attachments,
  };
}
