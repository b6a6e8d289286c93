import type { Logger } from 'pino';
import type { MessagingProviders } from './delivery-provider.js';
import { OutboxProvider } from './outbox-provider.js';
import { SmtpProvider } from './smtp-provider.js';
import { TwilioProvider } from './twilio-provider.js';

export type EmailProviderConfig = { kind: 'outbox'; from: string } | { kind: 'smtp'; url: string; from: string };
export type SmsProviderConfig =
  | { kind: 'outbox'; from: string }
  | { kind: 'twilio'; accountSid: string; authToken: string; from: string; baseUrl?: string | undefined };

export interface MessagingConfig {
  email: EmailProviderConfig;
  sms: SmsProviderConfig;
}

export const OUTBOX_MESSAGING: MessagingConfig = {
  email: { kind: 'outbox', from: 'vsf@localhost' },
  sms: { kind: 'outbox', from: '+10000000000' },
};

function required(env: NodeJS.ProcessEnv, name: string, why: string): string {
  const value = env[name]?.trim();
  if (!value) throw new Error(`${name} is required ${why}`);
  return value;
}

/**
 * `VSF_SMTP_URL` switches email to SMTP (`VSF_EMAIL_FROM` the sender); `VSF_TWILIO_ACCOUNT_SID` switches SMS
 * to Twilio (`VSF_TWILIO_AUTH_TOKEN`, `VSF_SMS_FROM`, optional `VSF_TWILIO_BASE_URL`). Otherwise the outbox.
 */
export function messagingFromEnv(env: NodeJS.ProcessEnv): MessagingConfig {
  const emailFrom = env.VSF_EMAIL_FROM?.trim() || OUTBOX_MESSAGING.email.from;
  const smsFrom = env.VSF_SMS_FROM?.trim() || OUTBOX_MESSAGING.sms.from;
  const smtpUrl = env.VSF_SMTP_URL?.trim();
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl))
    throw new Error('VSF_SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.com:587');
  const twilioSid = env.VSF_TWILIO_ACCOUNT_SID?.trim();
  return {
    email: smtpUrl
      ? { kind: 'smtp', url: smtpUrl, from: required(env, 'VSF_EMAIL_FROM', 'with VSF_SMTP_URL (the sender address)') }
      : { kind: 'outbox', from: emailFrom },
    sms: twilioSid
      ? {
          kind: 'twilio',
          accountSid: twilioSid,
          authToken: required(env, 'VSF_TWILIO_AUTH_TOKEN', 'with VSF_TWILIO_ACCOUNT_SID'),
          from: required(env, 'VSF_SMS_FROM', 'with VSF_TWILIO_ACCOUNT_SID (the sending number)'),
          baseUrl: env.VSF_TWILIO_BASE_URL?.trim() || undefined,
        }
      : { kind: 'outbox', from: smsFrom },
  };
}

export function createMessagingProviders(config: MessagingConfig, logger?: Logger): MessagingProviders {
  return {
    email:
      config.email.kind === 'smtp' ? new SmtpProvider(config.email) : new OutboxProvider(config.email.from, logger),
    sms: config.sms.kind === 'twilio' ? new TwilioProvider(config.sms) : new OutboxProvider(config.sms.from, logger),
  };
}
