import type { ApiCaller } from './api-caller.js';
import type { EndpointFixture, RecordFactory } from './endpoint-fixtures.js';

// Kept apart from endpoint-fixtures.ts (which spreads these in) so the marketing areas grow without
// touching one shared list. Type-only imports from there: no cycle at run time.

/** A 1×1 PNG, base64. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

async function created(api: ApiCaller, path: string, body: unknown): Promise<string> {
  const res = await api('POST', path, { body });
  if (res.status !== 201) throw new Error(`fixture POST ${path} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { data: { id: string } }).data.id;
}

/** Forms, social events (options, invites, RSVPs), social accounts and posts, asset folders and assets. */
export const engagementRecordFactories: [param: string, factory: RecordFactory][] = [
  [
    'formId',
    (api) =>
      created(api, '/marketing/forms', {
        name: 'Fixture form',
        fields: [
          { key: 'email', label: 'Email', type: 'email', required: true },
          { key: 'interest', label: 'Interest', type: 'select', options: ['storage', 'detailing'] },
        ],
      }),
  ],
  [
    'submissionId',
    (api, ids) =>
      created(api, `/marketing/forms/${ids.formId}/submissions`, {
        values: { email: 'fixture-lead@example.com', interest: 'storage' },
      }),
  ],
  [
    'eventId',
    (api, ids) =>
      created(api, '/marketing/social-events', {
        name: 'Fixture cars and coffee',
        startsAt: '2030-05-01T09:00:00Z',
        locationId: ids.locationId,
      }),
  ],
  [
    'rsvpOptionId',
    (api, ids) => created(api, `/marketing/social-events/${ids.eventId}/rsvp-options`, { label: 'Attending' }),
  ],
  [
    'inviteId',
    (api, ids) => created(api, `/marketing/social-events/${ids.eventId}/invites`, { customerId: ids.customerId }),
  ],
  [
    'rsvpId',
    (api, ids) =>
      created(api, `/marketing/social-events/${ids.eventId}/rsvps`, {
        rsvpOptionId: ids.rsvpOptionId,
        inviteId: ids.inviteId,
      }),
  ],
  [
    'socialAccountId',
    (api) =>
      created(api, '/marketing/social-accounts', {
        network: 'instagram',
        handle: `fixture_${Math.random().toString(36).slice(2, 8)}`,
      }),
  ],
  [
    'postId',
    (api, ids) =>
      created(api, '/marketing/social-posts', { socialAccountId: ids.socialAccountId, body: 'Fixture post' }),
  ],
  ['folderId', (api) => created(api, '/marketing/asset-folders', { name: 'Fixture folder' })],
  [
    'assetId',
    (api) => created(api, '/marketing/assets', { filename: 'fixture.png', contentType: 'image/png', base64: PNG }),
  ],
];

export const engagementFixtures: Record<string, EndpointFixture> = {
  listForms: { noRecordIds: true },
  getForm: {},
  createForm: {
    body: { name: 'Newsletter', fields: [{ key: 'email', label: 'Email', type: 'email', required: true }] },
    noRecordIds: true,
  },
  updateForm: { body: { description: 'Spring sign-up' } },
  deleteForm: {},
  createFormSubmission: { body: { values: { email: 'lead@example.com' }, respondentName: 'Lee Dee' } },
  listFormSubmissions: {},
  getFormSubmission: {},

  listSocialEvents: { noRecordIds: true },
  getSocialEvent: {},
  createSocialEvent: { body: { name: 'Season opening', startsAt: '2030-04-01T18:00:00+02:00' }, noRecordIds: true },
  updateSocialEvent: { body: { capacity: 80 } },
  deleteSocialEvent: {},
  listRsvpOptions: {},
  getRsvpOption: {},
  createRsvpOption: { body: { label: 'Declined', attending: false } },
  updateRsvpOption: { body: { sortOrder: 2 } },
  deleteRsvpOption: {},
  listSocialEventInvites: {},
  getSocialEventInvite: {},
  createSocialEventInvite: { body: { contactId: '{{contactId}}' } },
  deleteSocialEventInvite: {},
  listSocialEventRsvps: {},
  getSocialEventRsvp: {},
  createSocialEventRsvp: { body: { rsvpOptionId: '{{rsvpOptionId}}', name: 'Walk-in guest', guestCount: 2 } },
  updateSocialEventRsvp: { body: { guestCount: 3 } },

  listSocialAccounts: { noRecordIds: true },
  getSocialAccount: {},
  createSocialAccount: { body: { network: 'facebook', handle: 'vsf.garage' }, noRecordIds: true },
  updateSocialAccount: { body: { displayName: 'VSF Garage' } },
  deleteSocialAccount: {},
  listSocialPosts: { noRecordIds: true },
  getSocialPost: {},
  createSocialPost: {
    body: { socialAccountId: '{{socialAccountId}}', body: 'Open house Saturday', scheduledAt: '2030-03-01T10:00:00Z' },
    noRecordIds: true,
  },
  updateSocialPost: { body: { body: 'Open house Sunday' } },
  deleteSocialPost: {},
  publishSocialPost: {},

  listMarketingAssets: { noRecordIds: true },
  getMarketingAsset: {},
  createMarketingAsset: {
    body: { filename: 'banner.png', contentType: 'image/png', base64: PNG, folderId: '{{folderId}}' },
    noRecordIds: true,
  },
  updateMarketingAsset: { body: { name: 'Renamed banner' } },
  deleteMarketingAsset: {},
  listAssetFolders: { noRecordIds: true },
  getAssetFolder: {},
  createAssetFolder: { body: { name: 'Spring', parentId: '{{folderId}}' }, noRecordIds: true },
  updateAssetFolder: { body: { name: 'Renamed folder' } },
  deleteAssetFolder: {},
};
