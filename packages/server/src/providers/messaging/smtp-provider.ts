import { createTransport, type Transporter } from 'nodemailer';
import {
  DeliveryError,
  type DeliveryProvider,
  type DeliveryReceipt,
  type OutboundMessage,
} from './delivery-provider.js';

export interface SmtpOptions {
  /** `smtp://user:pass@host:587` or `smtps://…:465`. */
  url: string;
  from: string;
  /** Connection, greeting and socket timeouts, ms. */
  timeoutMs?: number;
}

/** Email through any SMTP server (nodemailer); team media paths travel as attachments. */
export class SmtpProvider implements DeliveryProvider {
  readonly name = 'smtp';
  private readonly transport: Transporter;

  constructor(private readonly options: SmtpOptions) {
    const timeout = options.timeoutMs ?? 10_000;
    this.transport = createTransport({
      url: options.url,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    });
  }

  async deliver(message: OutboundMessage): Promise<DeliveryReceipt> {
    try {
      const info = await this.transport.sendMail({
        from: this.options.from,
        to: message.to,
        subject: message.subject ?? '',
        ...(message.text !== null ? { text: message.text } : {}),
        ...(message.html !== null ? { html: message.html } : {}),
        attachments: message.attachments.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: Buffer.from(a.content),
        })),
        headers: { 'X-Vsf-Message-Id': message.id },
      });
      const rejected = info.rejected ?? [];
      if (rejected.length > 0) throw new Error(`the server refused ${rejected.join(', ')}: ${info.response}`);
      return { provider: this.name, providerMessageSid: info.messageId, from: this.options.from };
    } catch (error) {
      throw new DeliveryError(this.name, `SMTP delivery failed: ${(error as Error).message}`);
    }
  }
}
