import { describe, expect, it } from 'vitest';
import { addressOf, draftInThread } from './draft-message.js';

const thread = { id: 't1', customerId: 'c1', channel: 'email' as const, subject: 'Your car' };

describe('draftInThread', () => {
  it("holds the thread's customer and channel, an email's subject from the thread, nothing sent", () => {
    expect(draftInThread(thread, { body: 'Ready' }, 'ada@example.com')).toEqual({
      threadId: 't1',
      customerId: 'c1',
      channel: 'email',
      direction: 'outbound',
      from: null,
      to: 'ada@example.com',
      body: 'Ready',
      subject: 'Your car',
      htmlBody: null,
      textBody: null,
      mediaUrls: [],
      status: 'draft',
      provider: null,
      providerMessageSid: null,
      error: null,
      campaignSendId: null,
      sentAt: null,
    });
  });

  it("keeps a subject it is given, and gives an SMS none of the thread's", () => {
    expect(draftInThread(thread, { subject: 'Pick-up' }, null).subject).toBe('Pick-up');
    expect(draftInThread({ ...thread, channel: 'sms' }, {}, null).subject).toBeNull();
  });
});

describe('addressOf', () => {
  it('reads the address of the channel, and counts a blank one as none', () => {
    const customer = { email: ' ada@example.com ', phone: '   ' };
    expect(addressOf(customer, 'email')).toBe('ada@example.com');
    expect(addressOf(customer, 'sms')).toBeUndefined();
    expect(addressOf({ email: null, phone: '+15550100' }, 'sms')).toBe('+15550100');
  });
});
