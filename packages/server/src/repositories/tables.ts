import type {
  V1Appointment,
  V1AppointmentType,
  V1AssetFolder,
  V1CampaignAudience,
  V1CampaignContentStep,
  V1CampaignSend,
  V1Car,
  V1CarEvent,
  V1CommunicationMessage,
  V1CommunicationThread,
  V1Contact,
  V1Customer,
  V1FormSubmission,
  V1Location,
  V1ParkingAssignment,
  V1ParkingSpot,
  V1ParkingZone,
  V1SocialAccount,
  V1SocialEvent,
  V1SocialEventInvite,
  V1SocialEventRsvp,
  V1SocialPost,
  V1Template,
} from '@vsf/contract';
import { resourceTable } from './resource-tables.js';

// The tables the services name, typed as their records: each is RESOURCE_TABLES' table, derived from its
// declaration, so naming one here repeats nothing but its record type.
export const carsTable = resourceTable<V1Car>('cars');
export const customersTable = resourceTable<V1Customer>('customers');
export const contactsTable = resourceTable<V1Contact>('contacts');
export const locationsTable = resourceTable<V1Location>('locations');
export const parkingZonesTable = resourceTable<V1ParkingZone>('parking.zones');
export const parkingSpotsTable = resourceTable<V1ParkingSpot>('parking.spots');
export const parkingAssignmentsTable = resourceTable<V1ParkingAssignment>('parking.assignments');
export const carEventsTable = resourceTable<V1CarEvent>('cars.events');
export const appointmentTypesTable = resourceTable<V1AppointmentType>('appointmentTypes');
export const appointmentsTable = resourceTable<V1Appointment>('appointments');
/** Submissions are immutable: `updated_at` equals `submitted_at` and is not part of the API object. */
export const formSubmissionsTable = resourceTable<V1FormSubmission>('marketing.forms.submissions');
export const socialEventsTable = resourceTable<V1SocialEvent>('marketing.socialEvents');
export const invitesTable = resourceTable<V1SocialEventInvite>('marketing.socialEvents.invites');
export const rsvpsTable = resourceTable<V1SocialEventRsvp>('marketing.socialEvents.rsvps');
export const socialAccountsTable = resourceTable<V1SocialAccount>('marketing.socialAccounts');
export const socialPostsTable = resourceTable<V1SocialPost>('marketing.socialPosts');
export const assetFoldersTable = resourceTable<V1AssetFolder>('marketing.assetFolders');
export const templatesTable = resourceTable<V1Template>('marketing.templates');
export const audiencesTable = resourceTable<V1CampaignAudience>('marketing.campaigns.audiences');
export const contentStepsTable = resourceTable<V1CampaignContentStep>('marketing.campaigns.content');
export const campaignSendsTable = resourceTable<V1CampaignSend>('marketing.campaigns.sends');
export const threadsTable = resourceTable<V1CommunicationThread>('communicationThreads');
export const messagesTable = resourceTable<V1CommunicationMessage>('communicationThreads.messages');

export {
  type EventTypeRow,
  eventTypesTable,
  type MarketingAssetRow,
  type MediaRow,
  marketingAssetsTable,
  mediaTable,
  rsvpOptionsTable,
  toEventType,
} from './stored-tables.js';
