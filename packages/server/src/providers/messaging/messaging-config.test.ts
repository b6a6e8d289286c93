import { describe, expect, it } from 'vitest';
import { messagingFromEnv, OUTBOX_MESSAGING } from './messaging-config.js';

describe('messagingFromEnv', () => {
  it('uses the outbox when nothing is configured', () => {
    expect(messagingFromEnv({})).toEqual(OUTBOX_MESSAGING);
  });

  it('selects SMTP and Twilio from their variables', () => {
    expect(
      messagingFromEnv({
        VSF_SMTP_URL: 'smtp://u:p@mail.example.com:587',
        VSF_EMAIL_FROM: 'desk@example.com',
        VSF_TWILIO_ACCOUNT_SID: 'AC1',
        VSF_TWILIO_AUTH_TOKEN: 't',
        VSF_SMS_FROM: '+15550001111',
      }),
    ).toEqual({
      email: { kind: 'smtp', url: 'smtp://u:p@mail.example.com:587', from: 'desk@example.com' },
      sms: { kind: 'twilio', accountSid: 'AC1', authToken: 't', from: '+15550001111', baseUrl: undefined },
    });
  });

  it('says what is missing instead of failing at the first delivery', () => {
    expect(() => messagingFromEnv({ VSF_SMTP_URL: 'smtp://mail.example.com' })).toThrow(/VSF_EMAIL_FROM is required/);
    expect(() => messagingFromEnv({ VSF_SMTP_URL: 'mail.example.com' })).toThrow(/smtp:\/\/ or smtps:\/\//);
    expect(() => messagingFromEnv({ VSF_TWILIO_ACCOUNT_SID: 'AC1', VSF_SMS_FROM: '+1' })).toThrow(
      /VSF_TWILIO_AUTH_TOKEN is required/,
    );
  });
});
