import type { V1Contact, V1ParkingAssignment, V1RsvpOption } from '@vsf/contract';
import { lazyRecord } from './lazy-record.js';
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
import { RESOURCE_TABLES } from './standard/resource-tables.js';
import { TeamResource } from './standard/team-resource.js';

/**
 * Every team resource, by SDK namespace. A resource the contract declares and nothing here names is served
 * by the generic `TeamResource` (its table is RESOURCE_TABLES'): `locations`, for one. Named here are those
 * that say more: a class in resources/ for behaviour of its own, options for defaults the migration does
 * not give or filters that are not equality.
 */
export function createResources(deps: MediaDeps & DeliveryDeps & SocialDeps & WebhookServiceDeps) {
  const special = {
    appointments: () => new Appointments(deps),
    cars: () => new Cars(deps),
    'cars.events': () => new CarEvents(deps),
    'cars.photos': () => new CarPhotos(deps),
    customers: () => new Customers(deps),
    eventTypes: () => new EventTypes(deps),
    'communicationThreads.messages': () => new CommunicationMessages(deps),
    'marketing.templates': () => new Templates(deps),
    'marketing.forms': () => new Forms(deps),
    'marketing.socialAccounts': () => new SocialAccounts(deps),
    'marketing.socialPosts': () => new SocialPosts(deps),
    'marketing.socialEvents': () => new SocialEvents(deps),
    'marketing.socialEvents.rsvpOptions': () =>
      new TeamResource<V1RsvpOption>(deps, 'marketing.socialEvents.rsvpOptions', {
        defaults: { description: null, attending: true, sortOrder: 0 },
      }),
    'marketing.socialEvents.invites': () => new SocialEventInvites(deps),
    'marketing.socialEvents.rsvps': () => new SocialEventRsvps(deps),
    'marketing.campaigns': () => new Campaigns(deps),
    'marketing.campaigns.audiences': () => new CampaignAudiences(deps),
    'marketing.campaigns.content': () => new CampaignContentSteps(deps),
    'marketing.campaigns.sends': () => new CampaignSends(deps),
    'marketing.assets': () => new MarketingAssets(deps),
    'marketing.assetFolders': () => new AssetFolders(deps),
    webhooks: () => new Webhooks(deps),
    contacts: () =>
      new TeamResource<V1Contact>(deps, 'contacts', {
        defaults: { role: 'other', isPrimary: false, canAccessPortal: false },
      }),
    'parking.spots': () => new ParkingSpots(deps),
    'parking.assignments': () =>
      new TeamResource<V1ParkingAssignment>(deps, 'parking.assignments', {
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
    .map((namespace) => [namespace, () => new TeamResource<{ id: string }>(deps, namespace)] as const);
  type Made<F> = { [K in keyof F]: F[K] extends () => infer V ? V : never };
  return lazyRecord({
    ...(Object.fromEntries(standard) as Record<string, () => TeamResource<{ id: string }>>),
    ...special,
  }) as Record<string, TeamResource<{ id: string }>> & Made<typeof special>;
}

export type Resources = ReturnType<typeof createResources>;
