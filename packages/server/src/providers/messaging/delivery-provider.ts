import type { CommunicationChannel } from '@vsf/contract';

/** A team-owned media file travelling with a message (email attaches it). */
export interface MessageAttachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
}

/** What a provider is asked to deliver: one message to one recipient. */
export interface OutboundMessage {
  id: string;
  channel: CommunicationChannel;
  to: string;
  subject: string | null;
  /** Plain text: `textBody`, else `body`. */
  text: string | null;
  html: string | null;
  /** Public `https://` media. */
  mediaUrls: string[];
  /** Team-owned `/api/media/<id>` media, already read from the blob store. */
  attachments: MessageAttachment[];
}

export interface DeliveryReceipt {
  /** `outbox`, `smtp`, `twilio`. */
  provider: string;
  providerMessageSid: string;
  /** The address or number the provider sent from. */
  from: string | null;
}

/** Thrown when a provider refuses or cannot be reached; the message is kept as `failed` with this text. */
export class DeliveryError extends Error {
  constructor(
    readonly provider: string,
    message: string,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}

export interface DeliveryProvider {
  readonly name: string;
  /** Resolves with the provider's receipt, or rejects (ideally with a DeliveryError). */
  deliver(message: OutboundMessage): Promise<DeliveryReceipt>;
}

/** The provider of each channel, chosen by configuration. */
export interface MessagingProviders {
  email: DeliveryProvider;
  sms: DeliveryProvider;
}
