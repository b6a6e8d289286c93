import {
  DeliveryError,
  type DeliveryProvider,
  type DeliveryReceipt,
  type OutboundMessage,
} from './delivery-provider.js';

export interface TwilioOptions {
  accountSid: string;
  authToken: string;
  /** The sending number (E.164) or messaging service sid (`MG…`). */
  from: string;
  /** Twilio's API, or a compatible one (tests point this at a local mock). */
  baseUrl?: string | undefined;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/**
 * SMS/MMS through Twilio's Messages API, or any service with the same shape. Twilio fetches media itself,
 * so only public `https://` media can go; a team's private `/api/media` file makes the delivery fail.
 */
export class TwilioProvider implements DeliveryProvider {
  readonly name = 'twilio';

  constructor(private readonly options: TwilioOptions) {}

  async deliver(message: OutboundMessage): Promise<DeliveryReceipt> {
    if (message.attachments.length > 0) {
      throw new DeliveryError(
        this.name,
        'Twilio fetches media from public URLs, and /api/media files are private: link https:// media instead',
      );
    }
    const base = (this.options.baseUrl ?? 'https://api.twilio.com').replace(/\/$/, '');
    const form = new URLSearchParams({ To: message.to, From: this.options.from, Body: message.text ?? '' });
    for (const url of message.mediaUrls) form.append('MediaUrl', url);
    const auth = Buffer.from(`${this.options.accountSid}:${this.options.authToken}`).toString('base64');
    let response: Response;
    try {
      response = await (this.options.fetch ?? fetch)(
        `${base}/2010-04-01/Accounts/${encodeURIComponent(this.options.accountSid)}/Messages.json`,
        {
          method: 'POST',
          headers: { authorization: `Basic ${auth}`, 'content-type': 'application/x-www-form-urlencoded' },
          body: form,
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
        },
      );
    } catch (error) {
      throw new DeliveryError(this.name, `Twilio could not be reached: ${(error as Error).message}`);
    }
    const json = (await response.json().catch(() => ({}))) as { sid?: string; message?: string; code?: number };
    if (!response.ok || typeof json.sid !== 'string') {
      const why = json.message
        ? `${json.message}${json.code ? ` (code ${json.code})` : ''}`
        : `HTTP ${response.status}`;
      throw new DeliveryError(this.name, `Twilio refused the message: ${why}`);
    }
    return { provider: this.name, providerMessageSid: json.sid, from: this.options.from };
  }
}
