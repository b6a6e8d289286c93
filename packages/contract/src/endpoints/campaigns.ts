import { defineEndpoint } from '../endpoint.js';
import {
  CampaignStatus,
  V1AudienceMember,
  V1Campaign,
  V1CampaignAudience,
  V1CampaignAudienceCreate,
  V1CampaignAudienceUpdate,
  V1CampaignContentStep,
  V1CampaignContentStepCreate,
  V1CampaignContentStepUpdate,
  V1CampaignCreate,
  V1CampaignSend,
  V1CampaignSendCreate,
  V1CampaignUpdate,
} from '../schemas/campaign.js';
import { DeletedRecord, dataResponse, listQueryShape, listResponse, QueryBoolean } from '../schemas/common.js';
import { readScopes, writeScopes } from '../scopes.js';
import { z } from '../zod.js';
import { idParams } from './shared.js';

const read = { all: readScopes('campaigns') };
const write = { all: writeScopes('campaigns') };
const campaigns = ['marketing', 'campaigns'] as const;
const audiences = ['marketing', 'campaigns', 'audiences'] as const;
const content = ['marketing', 'campaigns', 'content'] as const;
const sends = ['marketing', 'campaigns', 'sends'] as const;

export const listCampaigns = defineEndpoint({
  operationId: 'listCampaigns',
  surface: 'v1',
  method: 'get',
  path: '/marketing/campaigns',
  summary: 'List campaigns',
  scopes: read,
  sdk: { namespace: campaigns, method: 'list' },
  query: z.strictObject({ ...listQueryShape, status: CampaignStatus.optional() }),
  response: { status: 200, description: 'A page of campaigns', schema: listResponse(V1Campaign) },
  paginated: true,
});

export const getCampaign = defineEndpoint({
  operationId: 'getCampaign',
  surface: 'v1',
  method: 'get',
  path: '/marketing/campaigns/{campaignId}',
  summary: 'Get a campaign',
  scopes: read,
  sdk: { namespace: campaigns, method: 'get' },
  params: idParams('campaignId'),
  response: { status: 200, description: 'The campaign', schema: dataResponse(V1Campaign) },
  resourceName: 'Campaign',
  errors: [404],
});

export const createCampaign = defineEndpoint({
  operationId: 'createCampaign',
  surface: 'v1',
  method: 'post',
  path: '/marketing/campaigns',
  summary: 'Create a campaign',
  scopes: write,
  sdk: { namespace: campaigns, method: 'create' },
  body: V1CampaignCreate,
  response: { status: 201, description: 'The campaign', schema: dataResponse(V1Campaign) },
});

export const updateCampaign = defineEndpoint({
  operationId: 'updateCampaign',
  surface: 'v1',
  method: 'patch',
  path: '/marketing/campaigns/{campaignId}',
  summary: 'Update a campaign',
  scopes: write,
  sdk: { namespace: campaigns, method: 'update' },
  params: idParams('campaignId'),
  body: V1CampaignUpdate,
  response: { status: 200, description: 'The campaign', schema: dataResponse(V1Campaign) },
  resourceName: 'Campaign',
  errors: [404],
});

export const deleteCampaign = defineEndpoint({
  operationId: 'deleteCampaign',
  surface: 'v1',
  method: 'delete',
  path: '/marketing/campaigns/{campaignId}',
  summary: 'Delete an unsent campaign',
  description:
    'Removes the campaign with its audiences and content steps. A campaign that has sent anything is a record of what customers received: archive it instead (`status: archived`; 409 here).',
  scopes: write,
  sdk: { namespace: campaigns, method: 'delete' },
  params: idParams('campaignId'),
  response: { status: 200, description: 'Deleted', schema: dataResponse(DeletedRecord) },
  resourceName: 'Campaign',
  errors: [404, 409],
});

export const listCampaignAudiences = defineEndpoint({
  operationId: 'listCampaignAudiences',
  surface: 'v1',
  method: 'get',
  path: '/marketing/campaigns/{campaignId}/audiences',
  summary: 'List a campaign’s audiences',
  scopes: read,
  sdk: { namespace: audiences, method: 'list' },
  params: idParams('campaignId'),
  query: z.strictObject(listQueryShape),
  response: { status: 200, description: 'A page of audiences', schema: listResponse(V1CampaignAudience) },
  paginated: true,
  resourceName: 'Campaign',
  errors: [404],
});

export const getCampaignAudience = defineEndpoint({
  operationId: 'getCampaignAudience',
  surface: 'v1',
  method: 'get',
  path: '/marketing/campaigns/{campaignId}/audiences/{audienceId}',
  summary: 'Get an audience',
  scopes: read,
  sdk: { namespace: audiences, method: 'get' },
  params: idParams('campaignId', 'audienceId'),
  response: { status: 200, description: 'The audience', schema: dataResponse(V1CampaignAudience) },
  resourceName: 'Audience',
  errors: [404],
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
  sdk: { namespace: audiences, method: 'listMembers' },
  params: idParams('campaignId', 'audienceId'),
  query: z.strictObject({
    ...listQueryShape,
    allowsMarketing: QueryBoolean.optional().openapi({
      description: 'Only members who allow (`true`) or do not allow (`false`) marketing',
    }),
  }),
  response: { status: 200, description: 'A page of audience members', schema: listResponse(V1AudienceMember) },
  paginated: true,
  resourceName: 'Audience',
  errors: [404],
});

export const createCampaignAudience = defineEndpoint({
  operationId: 'createCampaignAudience',
  surface: 'v1',
  method: 'post',
  path: '/marketing/campaigns/{campaignId}/audiences',
  summary: 'Save an audience (a filter over customers)',
  description: 'The filter is saved, not its result: a send resolves it against the customers of that moment.',
  scopes: write,
  sdk: { namespace: audiences, method: 'create' },
  params: idParams('campaignId'),
  body: V1CampaignAudienceCreate,
  response: { status: 201, description: 'The audience', schema: dataResponse(V1CampaignAudience) },
  resourceName: 'Campaign',
  errors: [404],
});

export const updateCampaignAudience = defineEndpoint({
  operationId: 'updateCampaignAudience',
  surface: 'v1',
  method: 'patch',
  path: '/marketing/campaigns/{campaignId}/audiences/{audienceId}',
  summary: 'Update an audience',
  scopes: write,
  sdk: { namespace: audiences, method: 'update' },
  params: idParams('campaignId', 'audienceId'),
  body: V1CampaignAudienceUpdate,
  response: { status: 200, description: 'The audience', schema: dataResponse(V1CampaignAudience) },
  resourceName: 'Audience',
  errors: [404],
});

export const deleteCampaignAudience = defineEndpoint({
  operationId: 'deleteCampaignAudience',
  surface: 'v1',
  method: 'delete',
  path: '/marketing/campaigns/{campaignId}/audiences/{audienceId}',
  summary: 'Delete an audience that was never sent to',
  scopes: write,
  sdk: { namespace: audiences, method: 'delete' },
  params: idParams('campaignId', 'audienceId'),
  response: { status: 200, description: 'Deleted', schema: dataResponse(DeletedRecord) },
  resourceName: 'Audience',
  errors: [404, 409],
});

export const listCampaignContentSteps = defineEndpoint({
  operationId: 'listCampaignContentSteps',
  surface: 'v1',
  method: 'get',
  path: '/marketing/campaigns/{campaignId}/content',
  summary: 'List a campaign’s content steps',
  scopes: read,
  sdk: { namespace: content, method: 'list' },
  params: idParams('campaignId'),
  query: z.strictObject(listQueryShape),
  response: { status: 200, description: 'A page of steps', schema: listResponse(V1CampaignContentStep) },
  paginated: true,
  resourceName: 'Campaign',
  errors: [404],
});

export const getCampaignContentStep = defineEndpoint({
  operationId: 'getCampaignContentStep',
  surface: 'v1',
  method: 'get',
  path: '/marketing/campaigns/{campaignId}/content/{contentStepId}',
  summary: 'Get a content step',
  scopes: read,
  sdk: { namespace: content, method: 'get' },
  params: idParams('campaignId', 'contentStepId'),
  response: { status: 200, description: 'The step', schema: dataResponse(V1CampaignContentStep) },
  resourceName: 'Content step',
  errors: [404],
});

export const createCampaignContentStep = defineEndpoint({
  operationId: 'createCampaignContentStep',
  surface: 'v1',
  method: 'post',
  path: '/marketing/campaigns/{campaignId}/content',
  summary: 'Add a content step',
  description:
    '`type` is the channel (`email` or `sms`). A step may be a draft: `{type, name}` is enough, and what a send needs is checked by `POST /marketing/campaigns/{campaignId}/sends`. With `templateId` the template’s subject, body and htmlBody are copied into `content` (fields sent in `content` win) and the step keeps `templateId` as a note of its origin; the template’s channel must match `type`. Copying reads the template, so `templateId` also needs `read:templates` (403 `Missing scope: read:templates`, checked before the template is looked at).',
  scopes: write,
  sdk: { namespace: content, method: 'create' },
  params: idParams('campaignId'),
  body: V1CampaignContentStepCreate,
  fieldScopes: [
    {
      field: 'templateId',
      scopes: { all: ['read:templates'] },
      effect: 'copies the template’s subject and bodies into the step, which reads the template',
    },
  ],
  response: { status: 201, description: 'The step', schema: dataResponse(V1CampaignContentStep) },
  resourceName: 'Campaign',
  errors: [404],
});

export const updateCampaignContentStep = defineEndpoint({
  operationId: 'updateCampaignContentStep',
  surface: 'v1',
  method: 'patch',
  path: '/marketing/campaigns/{campaignId}/content/{contentStepId}',
  summary: 'Update a content step',
  scopes: write,
  sdk: { namespace: content, method: 'update' },
  params: idParams('campaignId', 'contentStepId'),
  body: V1CampaignContentStepUpdate,
  response: { status: 200, description: 'The step', schema: dataResponse(V1CampaignContentStep) },
  resourceName: 'Content step',
  errors: [404, 409],
});

export const deleteCampaignContentStep = defineEndpoint({
  operationId: 'deleteCampaignContentStep',
  surface: 'v1',
  method: 'delete',
  path: '/marketing/campaigns/{campaignId}/content/{contentStepId}',
  summary: 'Delete an unsent content step',
  scopes: write,
  sdk: { namespace: content, method: 'delete' },
  params: idParams('campaignId', 'contentStepId'),
  response: { status: 200, description: 'Deleted', schema: dataResponse(DeletedRecord) },
  resourceName: 'Content step',
  errors: [404, 409],
});

export const listCampaignSends = defineEndpoint({
  operationId: 'listCampaignSends',
  surface: 'v1',
  method: 'get',
  path: '/marketing/campaigns/{campaignId}/sends',
  summary: 'List a campaign’s sends',
  scopes: read,
  sdk: { namespace: sends, method: 'list' },
  params: idParams('campaignId'),
  query: z.strictObject(listQueryShape),
  response: { status: 200, description: 'A page of sends', schema: listResponse(V1CampaignSend) },
  paginated: true,
  resourceName: 'Campaign',
  errors: [404],
});

export const getCampaignSend = defineEndpoint({
  operationId: 'getCampaignSend',
  surface: 'v1',
  method: 'get',
  path: '/marketing/campaigns/{campaignId}/sends/{sendId}',
  summary: 'Get a send',
  scopes: read,
  sdk: { namespace: sends, method: 'get' },
  params: idParams('campaignId', 'sendId'),
  response: { status: 200, description: 'The send', schema: dataResponse(V1CampaignSend) },
  resourceName: 'Send',
  errors: [404],
});

export const createCampaignSend = defineEndpoint({
  operationId: 'createCampaignSend',
  surface: 'v1',
  method: 'post',
  path: '/marketing/campaigns/{campaignId}/sends',
  summary: 'Send a content step to an audience',
  description:
    'Resolves the audience now and writes one message per recipient who allows marketing (a contact with `communicationPreferences.marketing`), in the customer’s thread for the step’s channel, delivered through the same providers as `POST /communication-threads/{threadId}/messages`. Customers without consent or without an address for the channel are counted in `skippedCount`. Before anything is written the step must have what its channel sends (an `email` step `content.body` or `content.htmlBody`, an `sms` step `content.body`), and every recipient’s rendered message must be one the API accepts (no variable that renders a subject past 200 characters, a body past its bound, or nothing at all): otherwise a 400 `validation_error` names what is missing (`content.body`) or the recipient and field (`recipients.<customerId>.subject`), and nothing is stored or sent. Each step is sent once: repeating the call returns the first send and messages no one. Also needs `write:communications`, since it writes messages.',
  scopes: { all: [...writeScopes('campaigns'), 'write:communications'] },
  sdk: { namespace: sends, method: 'create' },
  params: idParams('campaignId'),
  body: V1CampaignSendCreate,
  response: { status: 201, description: 'The send, complete', schema: dataResponse(V1CampaignSend) },
  resourceName: 'Campaign',
  errors: [404],
});
