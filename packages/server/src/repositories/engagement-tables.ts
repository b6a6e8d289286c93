import type {
  V1AssetFolder,
  V1Form,
  V1FormSubmission,
  V1RsvpOption,
  V1SocialAccount,
  V1SocialEvent,
  V1SocialEventInvite,
  V1SocialEventRsvp,
  V1SocialPost,
} from '@vsf/contract';
import { TeamScopedTable } from './team-scoped-table.js';

export const formsTable = new TeamScopedTable<V1Form>(
  'forms',
  ['id', 'teamId', 'name', 'description', 'fields', 'isActive', 'createdAt', 'updatedAt'],
  { fields: 'json' },
);

/** Submissions are immutable: `updated_at` equals `submitted_at` and is not part of the API object. */
export const formSubmissionsTable = new TeamScopedTable<V1FormSubmission>(
  'form_submissions',
  [
    'id',
    'formId',
    'teamId',
    'customerId',
    'respondentEmail',
    'respondentName',
    'respondentPhone',
    'values',
    'fieldSnapshot',
    'metadata',
    'submittedAt',
  ],
  { values: 'json', fieldSnapshot: 'json', metadata: 'json' },
);

export const socialEventsTable = new TeamScopedTable<V1SocialEvent>(
  'social_events',
  [
    'id',
    'teamId',
    'name',
    'description',
    'startsAt',
    'endsAt',
    'locationId',
    'venue',
    'capacity',
    'status',
    'createdAt',
    'updatedAt',
  ],
  { capacity: 'number' },
);

export const rsvpOptionsTable = new TeamScopedTable<V1RsvpOption>(
  'social_event_rsvp_options',
  ['id', 'teamId', 'eventId', 'label', 'description', 'attending', 'sortOrder', 'createdAt', 'updatedAt'],
  { sortOrder: 'number' },
);

export const invitesTable = new TeamScopedTable<V1SocialEventInvite>('social_event_invites', [
  'id',
  'teamId',
  'eventId',
  'customerId',
  'contactId',
  'note',
  'createdAt',
  'updatedAt',
]);

export const rsvpsTable = new TeamScopedTable<V1SocialEventRsvp>(
  'social_event_rsvps',
  [
    'id',
    'teamId',
    'eventId',
    'rsvpOptionId',
    'inviteId',
    'customerId',
    'contactId',
    'name',
    'email',
    'guestCount',
    'note',
    'respondedAt',
    'createdAt',
    'updatedAt',
  ],
  { guestCount: 'number' },
);

export const socialAccountsTable = new TeamScopedTable<V1SocialAccount>('social_accounts', [
  'id',
  'teamId',
  'network',
  'handle',
  'displayName',
  'profileUrl',
  'isActive',
  'createdAt',
  'updatedAt',
]);

export const socialPostsTable = new TeamScopedTable<V1SocialPost>(
  'social_posts',
  [
    'id',
    'teamId',
    'socialAccountId',
    'network',
    'body',
    'mediaUrls',
    'scheduledAt',
    'status',
    'provider',
    'providerPostId',
    'error',
    'publishedAt',
    'createdAt',
    'updatedAt',
  ],
  { mediaUrls: 'json' },
);

export const assetFoldersTable = new TeamScopedTable<V1AssetFolder>('asset_folders', [
  'id',
  'teamId',
  'name',
  'parentId',
  'createdAt',
  'updatedAt',
]);

/** An asset's own metadata; its bytes, type and size are the `media` row with the same id. */
export interface MarketingAssetRow {
  id: string;
  teamId: string;
  folderId: string | null;
  name: string;
  createdAt: string;
  updatedAt: string;
}
export const marketingAssetsTable = new TeamScopedTable<MarketingAssetRow>('marketing_assets', [
  'id',
  'teamId',
  'folderId',
  'name',
  'createdAt',
  'updatedAt',
]);
