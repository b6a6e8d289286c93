import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { DeliveryProvider, DeliveryReceipt, OutboundMessage } from './delivery-provider.js';

export interface OutboxDelivery {
  receipt: DeliveryReceipt;
  message: OutboundMessage;
  deliveredAt: Date;
}

/** Deliveries kept in memory for inspection; older ones drop off (the messages table is the durable record). */
const KEEP = 1000;

/**
 * The default provider: delivers nowhere, so the embedded server works with no accounts. Each delivery is
 * logged and kept in `deliveries`, and the message is recorded as sent by `outbox`.
 */
export class OutboxProvider implements DeliveryProvider {
  readonly name = 'outbox';
  readonly deliveries: OutboxDelivery[] = [];

  constructor(
    private readonly from: string,
    private readonly logger?: Logger,
  ) {}

  async deliver(message: OutboundMessage): Promise<DeliveryReceipt> {
    const receipt = { provider: this.name, providerMessageSid: `outbox_${randomUUID()}`, from: this.from };
    this.deliveries.push({ receipt, message, deliveredAt: new Date() });
    if (this.deliveries.length > KEEP) this.deliveries.splice(0, this.deliveries.length - KEEP);
    this.logger?.info(
      { messageId: message.id, channel: message.channel, sid: receipt.providerMessageSid },
      'message recorded in the outbox (no provider configured)',
    );
    return receipt;
  }
}
