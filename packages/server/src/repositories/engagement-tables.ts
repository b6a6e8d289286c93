import {
  V1AssetFolder,
  V1FormSubmission,
  V1RsvpOption,
  V1SocialAccount,
  V1SocialEvent,
  V1SocialEventInvite,
  V1SocialEventRsvp,
  V1SocialPost,
} from '@vsf/contract';
import { TeamScopedTable } from './team-scoped-table.js';

/** Submissions are immutable: `updated_at` equals `submitted_at` and is not part of the API object. */
export const formSubmissionsTable = TeamScopedTable.of<V1FormSubmission>('form_submissions', V1FormSubmission);

export const socialEventsTable = TeamScopedTable.of<V1SocialEvent>('social_events', V1SocialEvent);

export const rsvpOptionsTable = TeamScopedTable.of<V1RsvpOption>('social_event_rsvp_options', V1RsvpOption);

export const invitesTable = TeamScopedTable.of<V1SocialEventInvite>('social_event_invites', V1SocialEventInvite);

export const rsvpsTable = TeamScopedTable.of<V1SocialEventRsvp>('social_event_rsvps', V1SocialEventRsvp);

export const socialAccountsTable = TeamScopedTable.of<V1SocialAccount>('social_accounts', V1SocialAccount);

export const socialPostsTable = TeamScopedTable.of<V1SocialPost>('social_posts', V1SocialPost);

export const assetFoldersTable = TeamScopedTable.of<V1AssetFolder>('asset_folders', V1AssetFolder);

/** An asset's own metadata; its bytes, type and size are the `media` row with the same id. */
export interface MarketingAssetRow {
  id: string;
  teamId: string;
  folderId: string | null;
  name: string;
  createdAt: string;
  updatedAt: string;
}
export const marketingAssetsTable = TeamScopedTable.ofRow<MarketingAssetRow>('marketing_assets', [
  'id',
  'teamId',
  'folderId',
  'name',
  'createdAt',
  'updatedAt',
]);
