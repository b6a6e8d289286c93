import { defineResource, idParams } from '../define-resource.js';
import { defineEndpoint } from '../endpoint.js';
import * as campaign from '../schemas/campaign.js';
import { listQueryShape, listResponse, QueryBoolean } from '../schemas/common.js';
import { readScopes, writeScopes } from '../scopes.js';
import { z } from '../zod.js';
import { marketing } from './groups.js';

export const campaigns = defineResource(marketing, {
  name: 'Campaign',
  path: '/campaigns',
  scope: 'campaigns',
  record: campaign.V1Campaign,
  createBody: campaign.V1CampaignCreate,
  updateBody: campaign.V1CampaignUpdate,
  filters: { status: campaign.CampaignStatus.optional() },
  delete: {
    summary: 'Delete an unsent campaign',
    description:
      'Removes the campaign with its audiences and content steps. A campaign that has sent anything is a record of what customers received: archive it instead (`status: archived`; 409 here).',
    errors: [409],
  },
});

export const audiences = defineResource(campaigns, {
  name: 'CampaignAudience',
  path: '/audiences',
  id: 'audienceId',
  label: 'Audience',
  record: campaign.V1CampaignAudience,
  createBody: campaign.V1CampaignAudienceCreate,
  updateBody: campaign.V1CampaignAudienceUpdate,
  create: {
    summary: 'Save an audience (a filter over customers)',
    description: 'The filter is saved, not its result: a send resolves it against the customers of that moment.',
  },
  delete: { summary: 'Delete an audience that was never sent to', errors: [409] },
});

export const contentSteps = defineResource(campaigns, {
  name: 'CampaignContentStep',
  path: '/content',
  id: 'contentStepId',
  label: 'Content step',
  record: campaign.V1CampaignContentStep,
  createBody: campaign.V1CampaignContentStepCreate,
  updateBody: campaign.V1CampaignContentStepUpdate,
  create: {
    summary: 'Add a content step',
    description:
      '`type` is the channel (`email` or `sms`). A step may be a draft: `{type, name}` is enough, and what a send needs is checked by `POST /marketing/campaigns/{campaignId}/sends`. With `templateId` the template’s subject, body and htmlBody are copied into `content` (fields sent in `content` win) and the step keeps `templateId` as a note of its origin; the template’s channel must match `type`. Copying reads the template, so `templateId` also needs `read:templates` (403 `Missing scope: read:templates`, checked before the template is looked at).',
    fieldScopes: [
      {
        field: 'templateId',
        scopes: { all: ['read:templates'] },
        effect: 'copies the template’s subject and bodies into the step, which reads the template',
      },
    ],
  },
  update: { errors: [409] },
  delete: { summary: 'Delete an unsent content step', errors: [409] },
});

export const sends = defineResource(campaigns, {
  name: 'CampaignSend',
  path: '/sends',
  id: 'sendId',
  label: 'Send',
  record: campaign.V1CampaignSend,
  createBody: campaign.V1CampaignSendCreate,
  operations: ['list', 'get', 'create'],
  create: {
    summary: 'Send a content step to an audience',
    description:
      'Resolves the audience now and writes one message per recipient who allows marketing (a contact with `communicationPreferences.marketing`), in the customer’s thread for the step’s channel, delivered through the same providers as `POST /communication-threads/{threadId}/messages`. Customers without consent or without an address for the channel are counted in `skippedCount`. Before anything is written the step must have what its channel sends (an `email` step `content.body` or `content.htmlBody`, an `sms` step `content.body`), and every recipient’s rendered message must be one the API accepts (no variable that renders a subject past 200 characters, a body past its bound, or nothing at all): otherwise a 400 `validation_error` names what is missing (`content.body`) or the recipient and field (`recipients.<customerId>.subject`), and nothing is stored or sent. Each step is sent once: repeating the call returns the first send and messages no one. Also needs `write:communications`, since it writes messages.',
    response: 'The send, complete',
    scopes: { all: [...writeScopes('campaigns'), 'write:communications'] },
  },
});

export const listCampaignAudienceMembers = defineEndpoint({
  operationId: 'listCampaignAudienceMembers',
  surface: 'v1',
  method: 'get',
  path: '/marketing/campaigns/{campaignId}/audiences/{audienceId}/members',
  summary: 'Preview who an audience reaches',
  description:
    'The customers the audience’s filter matches now, resolved exactly as a send would resolve it, each with `allowsMarketing`; `allowsMarketing=true` lists only those a send would message (the recipients, before checking each has an address for the step’s channel). Most recently updated customers first. Shows customer records, so it also needs `read:customers`.',
  scopes: { all: [...readScopes('campaigns'), 'read:customers'] },
  sdk: { namespace: audiences.sdk, method: 'listMembers' },
  params: idParams('campaignId', 'audienceId'),
  query: z.strictObject({
    ...listQueryShape,
    allowsMarketing: QueryBoolean.optional().openapi({
      description: 'Only members who allow (`true`) or do not allow (`false`) marketing',
    }),
  }),
  response: { status: 200, description: 'A page of audience members', schema: listResponse(campaign.V1AudienceMember) },
  paginated: true,
  resourceName: audiences.label,
});
