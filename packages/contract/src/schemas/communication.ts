import { z } from '../zod.js';
import { Timestamp, Uuid } from './common.js';
import { MediaUrl } from './media-url.js';
import { teamRecord } from './team-record.js';

export const CommunicationChannel = z.enum(['sms', 'email']).openapi('CommunicationChannel');
export type CommunicationChannel = z.infer<typeof CommunicationChannel>;

export const MessageStatus = z.enum(['draft', 'queued', 'sent', 'failed']).openapi('MessageStatus', {
  description:
    '`draft` until sent; `queued` while a provider has it; then `sent` (the provider accepted it) or `failed` (its error is in `error`; the message is kept and can be sent again)',
});

export const V1CommunicationThread = teamRecord(
  'V1CommunicationThread',
  {
    customerId: Uuid,
    channel: CommunicationChannel,
    subject: z.string().nullable(),
    lastMessageAt: Timestamp.nullable().openapi({ description: 'When the newest message was created or sent' }),
  },
  'A conversation with one customer over one channel',
);
export type V1CommunicationThread = z.infer<typeof V1CommunicationThread>;

export const V1CommunicationThreadCreate = z
  .strictObject({
    customerId: Uuid,
    channel: CommunicationChannel,
    subject: z.string().min(1).max(200).optional(),
  })
  .openapi('V1CommunicationThreadCreate');

export const V1CommunicationThreadUpdate = z
  .strictObject({ subject: z.string().min(1).max(200).nullable().optional() })
  .openapi('V1CommunicationThreadUpdate');

export const V1CommunicationMessage = teamRecord('V1CommunicationMessage', {
  threadId: Uuid,
  customerId: Uuid,
  channel: CommunicationChannel,
  direction: z
    .enum(['outbound', 'inbound'])
    .openapi({ description: 'Messages created through the API are `outbound`' }),
  from: z.string().nullable().openapi({ description: 'The sender address or number the provider used' }),
  to: z.string().nullable().openapi({
    description:
      'The customer’s email (email) or phone (sms), taken when the message was created and again when it is sent; null for a draft whose customer has no address on the channel yet',
  }),
  body: z.string().nullable(),
  subject: z.string().nullable(),
  htmlBody: z.string().nullable(),
  textBody: z.string().nullable(),
  mediaUrls: z.array(z.string()),
  status: MessageStatus,
  provider: z
    .string()
    .nullable()
    .openapi({ description: 'Who delivered it: `outbox` (recorded locally), `smtp` or `twilio`; null for drafts' }),
  providerMessageSid: z.string().nullable().openapi({ description: 'The provider’s id for the delivery' }),
  error: z.string().nullable().openapi({ description: 'Why delivery failed, as the provider said' }),
  campaignSendId: Uuid.nullable().openapi({ description: 'The campaign send that created it, if any' }),
  sentAt: Timestamp.nullable(),
});
export type V1CommunicationMessage = z.infer<typeof V1CommunicationMessage>;

const messageContent = {
  body: z
    .string()
    .min(1)
    .max(10_000)
    .optional()
    .openapi({ description: 'The message text (SMS text, or email text when `textBody` is absent)' }),
  subject: z.string().max(200).optional().openapi({ description: 'Email subject; defaults to the thread’s subject' }),
  htmlBody: z.string().max(200_000).optional(),
  textBody: z.string().max(10_000).optional(),
  mediaUrls: z.array(MediaUrl).max(10).optional().openapi({
    description: 'Each an `https://` URL or a `/api/media/<uuid>` path the team owns (MMS or email links)',
  }),
};

export const V1CommunicationMessageCreate = z
  .strictObject({
    ...messageContent,
    send: z
      .boolean()
      .default(false)
      .openapi({ description: '`false` stores a draft; `true` delivers it now through the channel’s provider' }),
  })
  .superRefine((b, ctx) => {
    if (b.body === undefined && b.textBody === undefined && b.htmlBody === undefined)
      ctx.addIssue({ code: 'custom', path: ['body'], message: 'Send body, textBody or htmlBody' });
  })
  .openapi('V1CommunicationMessageCreate', {
    description:
      'The recipient is the thread’s customer: their email for `email` threads, their phone for `sms`. A draft may be stored while the customer has none (`to` null); sending needs it (400 naming what to add).',
  });
export type V1CommunicationMessageCreate = z.input<typeof V1CommunicationMessageCreate>;

export const V1CommunicationMessageUpdate = z
  .strictObject({
    body: messageContent.body.unwrap().nullable().optional(),
    subject: messageContent.subject.unwrap().nullable().optional(),
    htmlBody: messageContent.htmlBody.unwrap().nullable().optional(),
    textBody: messageContent.textBody.unwrap().nullable().optional(),
    mediaUrls: messageContent.mediaUrls.unwrap().optional(),
  })
  .openapi('V1CommunicationMessageUpdate', { description: 'Only drafts can be edited (409 otherwise)' });
