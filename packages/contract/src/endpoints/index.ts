import { endpointsOf } from '../endpoints-of.js';
import { moreEndpoints } from '../generated/more-endpoints.js';
import * as admin from './admin.js';
import * as appointments from './appointments.js';
import * as auth from './auth.js';
import * as campaigns from './campaigns.js';
import * as carEvents from './car-events.js';
import * as cars from './cars.js';
import * as communications from './communications.js';
import * as contacts from './contacts.js';
import * as customers from './customers.js';
import * as eventTypes from './event-types.js';
import * as events from './events.js';
import * as forms from './forms.js';
import * as locations from './locations.js';
import * as marketingAssets from './marketing-assets.js';
import * as marketingCalendar from './marketing-calendar.js';
import * as media from './media.js';
import * as parking from './parking.js';
import * as socialEvents from './social-events.js';
import * as socialPosts from './social-posts.js';
import * as templates from './templates.js';
import * as webhooks from './webhooks.js';

/** Keys, cars, customers, contacts, locations, event types, and the feed of the team's changes. */
export const coreEndpoints = endpointsOf(auth, cars, customers, contacts, locations, eventTypes, events);

/** Parking, car events and photos, appointments. */
export const facilityEndpoints = endpointsOf(parking, carEvents, media, appointments);

/** Threads and messages with customers. */
export const communicationsEndpoints = endpointsOf(communications);

/** Campaigns (audiences, content steps, sends), templates and the marketing calendar. */
export const campaignsEndpoints = endpointsOf(campaigns, templates, marketingCalendar);
/** Marketing engagement: forms and submissions, social events, social posts and accounts, assets and folders. */
export const engagementEndpoints = endpointsOf(forms, socialEvents, socialPosts, marketingAssets);
/** Webhook endpoints the team's events are POSTed to, and their delivery logs (the `webhooks` extension). */
export const webhooksEndpoints = endpointsOf(webhooks);

/**
 * Every endpoint of the published API (`/api/v1`), keyed by operation id: the areas above, then every other
 * module of this folder (`moreEndpoints`, which `pnpm generate` lists: a new module needs no line here). The
 * server's handler map and the SDK follow from it.
 */
export const apiEndpoints = {
  ...coreEndpoints,
  ...facilityEndpoints,
  ...communicationsEndpoints,
  ...campaignsEndpoints,
  ...engagementEndpoints,
  ...webhooksEndpoints,
  ...moreEndpoints,
} as const;

/** The admin API (`/admin/v1`): the dashboard's backend, enabled by `VSF_ADMIN_TOKEN`. */
export const adminEndpoints = endpointsOf(admin);

export type CoreEndpoints = typeof coreEndpoints;
export type FacilityEndpoints = typeof facilityEndpoints;
export type CommunicationsEndpoints = typeof communicationsEndpoints;
export type CampaignsEndpoints = typeof campaignsEndpoints;
export type EngagementEndpoints = typeof engagementEndpoints;
export type WebhooksEndpoints = typeof webhooksEndpoints;
export type ApiEndpoints = typeof apiEndpoints;
export type AdminEndpoints = typeof adminEndpoints;
