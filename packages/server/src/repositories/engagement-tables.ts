import type {
  V1AssetFolder,
  V1FormSubmission,
  V1SocialAccount,
  V1SocialEvent,
  V1SocialEventInvite,
  V1SocialEventRsvp,
  V1SocialPost,
} from '@vsf/contract';
import { resourceTable } from './resource-tables.js';

/** Submissions are immutable: `updated_at` equals `submitted_at` and is not part of the API object. */
export const formSubmissionsTable = resourceTable<V1FormSubmission>('marketing.forms.submissions');

export const socialEventsTable = resourceTable<V1SocialEvent>('marketing.socialEvents');

export const invitesTable = resourceTable<V1SocialEventInvite>('marketing.socialEvents.invites');

export const rsvpsTable = resourceTable<V1SocialEventRsvp>('marketing.socialEvents.rsvps');

export const socialAccountsTable = resourceTable<V1SocialAccount>('marketing.socialAccounts');

export const socialPostsTable = resourceTable<V1SocialPost>('marketing.socialPosts');

export const assetFoldersTable = resourceTable<V1AssetFolder>('marketing.assetFolders');

export { type MarketingAssetRow, marketingAssetsTable, rsvpOptionsTable } from './stored-tables.js';
