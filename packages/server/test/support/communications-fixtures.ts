import type { ApiCaller } from './api-caller.js';
import type { EndpointFixture, RecordFactory } from './endpoint-fixtures.js';

async function created(api: ApiCaller, path: string, body: unknown): Promise<string> {
  const res = await api('POST', path, { body });
  if (res.status !== 201) throw new Error(`fixture POST ${path} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { data: { id: string } }).data.id;
}

/** Records of the communications and campaigns areas; they build on `customerId` from the core factories. */
export const communicationsRecordFactories: [param: string, factory: RecordFactory][] = [
  ['threadId', (api, ids) => created(api, '/communication-threads', { customerId: ids.customerId, channel: 'email' })],
  ['messageId', (api, ids) => created(api, `/communication-threads/${ids.threadId}/messages`, { body: 'Hello' })],
  [
    'templateId',
    (api) => created(api, '/marketing/templates', { name: 'Fixture', channel: 'email', body: 'Hi {{firstName}}' }),
  ],
  ['campaignId', (api) => created(api, '/marketing/campaigns', { name: 'Fixture campaign' })],
  [
    'audienceId',
    (api, ids) => created(api, `/marketing/campaigns/${ids.campaignId}/audiences`, { name: 'Everyone', filter: {} }),
  ],
  [
    'contentStepId',
    (api, ids) =>
      created(api, `/marketing/campaigns/${ids.campaignId}/content`, {
        type: 'email',
        name: 'Invite',
        content: { subject: 'Hi', body: 'Hello {{firstName}}' },
      }),
  ],
  [
    'sendId',
    async (api, ids) => {
      // A step of its own, so the shared `contentStepId` stays unsent and editable.
      const contentStepId = await created(api, `/marketing/campaigns/${ids.campaignId}/content`, {
        type: 'sms',
        name: 'Reminder',
        content: { body: 'See you {{firstName}}' },
      });
      return created(api, `/marketing/campaigns/${ids.campaignId}/sends`, {
        contentStepId,
        audienceId: ids.audienceId,
      });
    },
  ],
];

export const communicationsFixtures: Record<string, EndpointFixture> = {
  listCommunicationThreads: { noRecordIds: true },
  getCommunicationThread: {},
  createCommunicationThread: { body: { customerId: '{{customerId}}', channel: 'sms' } },
  updateCommunicationThread: { body: { subject: 'Spring pick-up' } },
  listCommunicationMessages: {},
  createCommunicationMessage: { body: { body: 'Your car is ready', send: true } },
  getCommunicationMessage: {},
  updateCommunicationMessage: { body: { body: 'Edited draft' } },
  sendCommunicationMessage: {},
  deleteCommunicationMessage: {},
  listTemplates: { noRecordIds: true },
  getTemplate: {},
  createTemplate: { body: { name: 'Welcome', channel: 'sms', body: 'Welcome {{firstName}}' }, noRecordIds: true },
  updateTemplate: { body: { name: 'Renamed' } },
  deleteTemplate: {},
  listCampaigns: { noRecordIds: true },
  getCampaign: {},
  createCampaign: { body: { name: 'Summer storage' }, noRecordIds: true },
  updateCampaign: { body: { status: 'active' } },
  deleteCampaign: {},
  listCampaignAudiences: {},
  getCampaignAudience: {},
  listCampaignAudienceMembers: {},
  createCampaignAudience: { body: { name: 'Sellers', filter: { hasCarsForSale: true } } },
  updateCampaignAudience: { body: { name: 'Renamed' } },
  deleteCampaignAudience: {},
  listCampaignContentSteps: {},
  getCampaignContentStep: {},
  createCampaignContentStep: { body: { type: 'email', name: 'From template', templateId: '{{templateId}}' } },
  updateCampaignContentStep: { body: { name: 'Renamed' } },
  deleteCampaignContentStep: {},
  listCampaignSends: {},
  getCampaignSend: {},
  createCampaignSend: { body: { contentStepId: '{{contentStepId}}', audienceId: '{{audienceId}}' } },
  getMarketingCalendar: {
    query: { from: '2030-01-01T00:00:00Z', to: '2030-02-01T00:00:00Z' },
    noRecordIds: true,
  },
};
