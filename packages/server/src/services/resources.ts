import type { V1Contact, V1ParkingAssignment, V1RsvpOption } from '@vsf/contract';
import { RESOURCE_TABLES } from '../repositories/resource-tables.js';
import { type LazyFactories, lazyRecordOf } from './lazy-record.js';
import type { DeliveryDeps } from './message-delivery.js';
import { Appointments } from './resources/appointments.js';
import { AssetFolders } from './resources/asset-folders.js';
import { CampaignAudiences } from './resources/campaign-audiences.js';
import { CampaignContentSteps } from './resources/campaign-content-steps.js';
import { CampaignSends } from './resources/campaign-sends.js';
import { Campaigns } from './resources/campaigns.js';
import { CarEvents } from './resources/car-events.js';
import { CarPhotos } from './resources/car-photos.js';
import { Cars } from './resources/cars.js';
import { CommunicationMessages } from './resources/communication-messages.js';
import { Customers } from './resources/customers.js';
import { EventTypes } from './resources/event-types.js';
import { Forms } from './resources/forms.js';
import { MarketingAssets } from './resources/marketing-assets.js';
import { ParkingSpots } from './resources/parking-spots.js';
import { SocialAccounts } from './resources/social-accounts.js';
import { SocialEventInvites } from './resources/social-event-invites.js';
import { SocialEventRsvps } from './resources/social-event-rsvps.js';
import { SocialEvents } from './resources/social-events.js';
import { type SocialDeps, SocialPosts } from './resources/social-posts.js';
import { Templates } from './resources/templates.js';
import { type WebhookServiceDeps, Webhooks } from './resources/webhooks.js';
import type { MediaDeps } from './service-deps.js';
import { TeamResource, type TeamResourceOptions } from './standard/team-resource.js';

type ResourceDeps = MediaDeps & DeliveryDeps & SocialDeps & WebhookServiceDeps;

/** Resources with a class of their own, each made from the services' dependencies. */
const classes = {
  appointments: Appointments,
  cars: Cars,
  'cars.events': CarEvents,
  'cars.photos': CarPhotos,
  customers: Customers,
  eventTypes: EventTypes,
  'communicationThreads.messages': CommunicationMessages,
  'marketing.templates': Templates,
  'marketing.forms': Forms,
  'marketing.socialAccounts': SocialAccounts,
  'marketing.socialPosts': SocialPosts,
  'marketing.socialEvents': SocialEvents,
  'marketing.socialEvents.invites': SocialEventInvites,
  'marketing.socialEvents.rsvps': SocialEventRsvps,
  'marketing.campaigns': Campaigns,
  'marketing.campaigns.audiences': CampaignAudiences,
  'marketing.campaigns.content': CampaignContentSteps,
  'marketing.campaigns.sends': CampaignSends,
  'marketing.assets': MarketingAssets,
  'marketing.assetFolders': AssetFolders,
  webhooks: Webhooks,
  'parking.spots': ParkingSpots,
};
/** A resource served by the generic class, with options of its own. */
const generic =
  <R extends { id: string }>(namespace: string, options: TeamResourceOptions<R>) =>
  (deps: ResourceDeps) =>
    new TeamResource<R>(deps, namespace, options);
const special = {
  ...(Object.fromEntries(
    Object.entries(classes).map(([namespace, Class]) => [namespace, (deps: ResourceDeps) => new Class(deps)]),
  ) as { [K in keyof typeof classes]: (deps: ResourceDeps) => InstanceType<(typeof classes)[K]> }),
  'marketing.socialEvents.rsvpOptions': generic<V1RsvpOption>('marketing.socialEvents.rsvpOptions', {
    defaults: { description: null, attending: true, sortOrder: 0 },
  }),
  contacts: generic<V1Contact>('contacts', {
    defaults: { role: 'other', isPrimary: false, canAccessPortal: false },
  }),
  'parking.assignments': generic<V1ParkingAssignment>('parking.assignments', {
    filters: {
      active: (q, value, column) => {
        if (value === true) q.whereNull(column('endedAt'));
        if (value === false) q.whereNotNull(column('endedAt'));
      },
    },
  }),
};
const standard = Object.keys(RESOURCE_TABLES)
  .filter((namespace) => !(namespace in special))
  .map((namespace) => [namespace, (deps: ResourceDeps) => new TeamResource<{ id: string }>(deps, namespace)] as const);
type Made<F> = { [K in keyof F]: F[K] extends (deps: ResourceDeps) => infer V ? V : never };
type AllResources = Record<string, TeamResource<{ id: string }>> & Made<typeof special>;
/**
 * Every team resource, by SDK namespace. A resource the contract declares and nothing here names is served
 * by the generic `TeamResource` (its table is RESOURCE_TABLES'): `locations`, for one. Named here are those
 * that say more: a class in resources/ for behaviour of its own, options for defaults the migration does
 * not give or filters that are not equality.
 * Made once: a request's transaction gets resources of its own, and this is what they cost to make.
 */
const resourcesOf = lazyRecordOf<ResourceDeps, AllResources>({
  ...Object.fromEntries(standard),
  ...special,
} as unknown as LazyFactories<ResourceDeps, AllResources>);

export function createResources(deps: ResourceDeps): AllResources {
  return resourcesOf(deps);
}

export type Resources = ReturnType<typeof createResources>;
