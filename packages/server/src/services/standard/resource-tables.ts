import {
  audiencesTable,
  campaignSendsTable,
  campaignsTable,
  contentStepsTable,
  templatesTable,
} from '../../repositories/campaign-tables.js';
import { messagesTable, threadsTable } from '../../repositories/communication-tables.js';
import {
  assetFoldersTable,
  formSubmissionsTable,
  formsTable,
  invitesTable,
  marketingAssetsTable,
  rsvpOptionsTable,
  rsvpsTable,
  socialAccountsTable,
  socialEventsTable,
  socialPostsTable,
} from '../../repositories/engagement-tables.js';
import {
  appointmentsTable,
  appointmentTypesTable,
  carEventsTable,
  mediaTable,
  parkingAssignmentsTable,
  parkingSpotsTable,
  parkingZonesTable,
} from '../../repositories/facility-tables.js';
import {
  carsTable,
  contactsTable,
  customersTable,
  eventTypesTable,
  locationsTable,
} from '../../repositories/tables.js';
import type { TeamScopedTable } from '../../repositories/team-scoped-table.js';
import { webhooksTable } from '../../repositories/webhook-tables.js';

/**
 * The table that holds each team resource, by the resource's SDK namespace in the contract. This is the
 * one place a resource's storage is named: the standard operations, the parent checks of nested routes
 * and the reference checks of every body (`customerId` → the customers table) all look it up here.
 */
// biome-ignore lint/suspicious/noExplicitAny: tables of every record type live side by side.
export const RESOURCE_TABLES: Record<string, TeamScopedTable<any>> = {
  cars: carsTable,
  customers: customersTable,
  contacts: contactsTable,
  locations: locationsTable,
  eventTypes: eventTypesTable,
  'parking.zones': parkingZonesTable,
  'parking.spots': parkingSpotsTable,
  'parking.assignments': parkingAssignmentsTable,
  'cars.events': carEventsTable,
  'cars.photos': mediaTable,
  appointments: appointmentsTable,
  appointmentTypes: appointmentTypesTable,
  communicationThreads: threadsTable,
  'communicationThreads.messages': messagesTable,
  'marketing.campaigns': campaignsTable,
  'marketing.campaigns.audiences': audiencesTable,
  'marketing.campaigns.sends': campaignSendsTable,
  'marketing.campaigns.content': contentStepsTable,
  'marketing.templates': templatesTable,
  'marketing.forms': formsTable,
  'marketing.forms.submissions': formSubmissionsTable,
  'marketing.socialEvents': socialEventsTable,
  'marketing.socialEvents.rsvpOptions': rsvpOptionsTable,
  'marketing.socialEvents.invites': invitesTable,
  'marketing.socialEvents.rsvps': rsvpsTable,
  'marketing.socialAccounts': socialAccountsTable,
  'marketing.socialPosts': socialPostsTable,
  'marketing.assets': marketingAssetsTable,
  'marketing.assetFolders': assetFoldersTable,
  webhooks: webhooksTable,
};
