import { z } from '../zod.js';
import { Timestamp, TimestampWithOffset, Uuid } from './common.js';
import { CommunicationChannel } from './communication.js';
import { V1Customer } from './customer.js';
import { allOptional, teamRecord } from './team-record.js';
import { checkTemplateFields } from './template.js';

export const CampaignStatus = z.enum(['draft', 'active', 'paused', 'completed', 'archived']).openapi('CampaignStatus');

export const V1Campaign = teamRecord(
  'V1Campaign',
  {
    name: z.string(),
    description: z.string().nullable(),
    status: CampaignStatus,
    startsAt: Timestamp.nullable(),
    endsAt: Timestamp.nullable(),
  },
  'A marketing campaign: audiences, content steps and their sends',
);
export type V1Campaign = z.infer<typeof V1Campaign>;

const campaignFields = {
  name: z.string().min(1).max(200).openapi({ example: 'Spring open house' }),
  description: z.string().max(5000).nullable().optional(),
  status: CampaignStatus.optional().openapi({ description: 'Defaults to `draft`' }),
  startsAt: TimestampWithOffset.nullable().optional(),
  endsAt: TimestampWithOffset.nullable().optional(),
};
const endsAfterStart = (
  b: { startsAt?: string | null | undefined; endsAt?: string | null | undefined },
  ctx: z.RefinementCtx,
) => {
  if (b.startsAt && b.endsAt && Date.parse(b.endsAt) <= Date.parse(b.startsAt))
    ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'endsAt must be after startsAt' });
};
export const V1CampaignCreate = z.strictObject(campaignFields).superRefine(endsAfterStart).openapi('V1CampaignCreate');
export const V1CampaignUpdate = z
  .strictObject(allOptional(campaignFields))
  .superRefine(endsAfterStart)
  .openapi('V1CampaignUpdate');

export const CONTACT_PREFERENCES = [
  'invoices',
  'estimates',
  'scheduling',
  'carUpdates',
  'contracts',
  'socialEvents',
  'marketing',
] as const;

export const AudienceFilter = z
  .strictObject({
    locationId: Uuid.optional().openapi({ description: 'Customers of this location' }),
    isActive: z.boolean().optional().openapi({ description: 'Active (or inactive) customers only' }),
    hasCarsForSale: z
      .boolean()
      .optional()
      .openapi({ description: 'Customers with (or without) a car marked for sale' }),
    contactPreference: z
      .enum(CONTACT_PREFERENCES)
      .optional()
      .openapi({ description: 'Customers with a contact who opted in to this kind of message' }),
    customerIds: z.array(Uuid).max(1000).optional().openapi({ description: 'Only these customers' }),
  })
  .openapi('AudienceFilter', {
    description:
      'Saved conditions over the team’s customers, all of which must hold; soft-deleted customers never match. Whatever the filter, a send reaches only customers with a contact who allows `marketing`.',
  });
export type AudienceFilter = z.infer<typeof AudienceFilter>;

export const V1CampaignAudience = teamRecord('V1CampaignAudience', {
  campaignId: Uuid,
  name: z.string(),
  filter: AudienceFilter,
});
export type V1CampaignAudience = z.infer<typeof V1CampaignAudience>;

export const V1AudienceMember = V1Customer.extend({
  allowsMarketing: z.boolean().openapi({
    description:
      'Whether a contact of this customer opted in to `marketing`: only members for whom this is true receive a send',
  }),
}).openapi('V1AudienceMember', {
  description: 'A customer the audience’s filter matches now, as a send would resolve it',
});
export type V1AudienceMember = z.infer<typeof V1AudienceMember>;

export const V1CampaignAudienceCreate = z
  .strictObject({ name: z.string().min(1).max(200), filter: AudienceFilter.default({}) })
  .openapi('V1CampaignAudienceCreate');
export const V1CampaignAudienceUpdate = z
  .strictObject({ name: z.string().min(1).max(200).optional(), filter: AudienceFilter.optional() })
  .openapi('V1CampaignAudienceUpdate', { description: '`filter` replaces the saved filter whole' });

export const ContentStepType = z.enum(['email', 'sms']).openapi('ContentStepType', {
  description: 'The channel the step is sent on',
});

export const StepContent = z
  .strictObject({
    subject: z.string().max(200).nullable().optional(),
    body: z.string().max(10_000).nullable().optional(),
    htmlBody: z.string().max(200_000).nullable().optional(),
  })
  .superRefine((c, ctx) => checkTemplateFields(c, ctx))
  .openapi('StepContent', { description: 'What the step sends; `{{variables}}` as in templates' });
export type StepContent = z.infer<typeof StepContent>;

export const V1CampaignContentStep = z
  .object({
    id: Uuid,
    campaignId: Uuid,
    type: ContentStepType,
    name: z.string(),
    order: z.number().int(),
    scheduledAt: Timestamp.nullable(),
    templateId: Uuid.nullable().openapi({ description: 'The template the content was copied from, if any' }),
    // A union, not `.nullable()`: that would make the `StepContent` component itself nullable.
    content: z.union([StepContent, z.null()]),
    createdAt: Timestamp.nullable(),
    updatedAt: Timestamp.nullable(),
  })
  .openapi('V1CampaignContentStep');
export type V1CampaignContentStep = z.infer<typeof V1CampaignContentStep>;

const stepFields = {
  type: ContentStepType,
  name: z.string().min(1).max(200),
  order: z.number().int().min(0).max(10_000).optional().openapi({ description: 'Defaults to after the last step' }),
  scheduledAt: TimestampWithOffset.nullable().optional(),
  templateId: Uuid.optional().openapi({
    description:
      'Copies the template’s subject, body and htmlBody into `content` (fields given in `content` win); later edits to the template do not change the step',
  }),
  content: StepContent.optional(),
};
export const V1CampaignContentStepCreate = z.strictObject(stepFields).openapi('V1CampaignContentStepCreate', {
  description: 'A step may be a draft (`{type, name}`): what a send needs is checked when the step is sent',
});
export const V1CampaignContentStepUpdate = z
  .strictObject({
    name: stepFields.name.optional(),
    order: stepFields.order,
    scheduledAt: stepFields.scheduledAt,
    content: StepContent.optional(),
  })
  .openapi('V1CampaignContentStepUpdate', { description: 'A step that has been sent cannot change (409)' });

export const V1CampaignSend = teamRecord(
  'V1CampaignSend',
  {
    campaignId: Uuid,
    contentStepId: Uuid,
    audienceId: Uuid,
    channel: CommunicationChannel,
    status: z.enum(['sending', 'completed']).openapi({
      description:
        '`sending` while messages are being written (or if the server stopped midway: sending again resumes it)',
    }),
    recipientCount: z.number().int().openapi({ description: 'Customers the audience matched' }),
    sentCount: z.number().int(),
    failedCount: z
      .number()
      .int()
      .openapi({ description: 'Messages the provider refused; each is kept with its error' }),
    skippedCount: z.number().int().openapi({
      description: 'Matched customers not messaged: no marketing consent, or no email/phone for the channel',
    }),
  },
  'One delivery of a content step to an audience: one message per recipient who allows marketing, each in the customer’s thread for the channel.',
);
export type V1CampaignSend = z.infer<typeof V1CampaignSend>;

export const V1CampaignSendCreate = z
  .strictObject({ contentStepId: Uuid, audienceId: Uuid })
  .openapi('V1CampaignSendCreate', {
    description:
      'A step is sent at most once: sending it again returns its first send and messages no one (or finishes a send the server stopped midway)',
  });
