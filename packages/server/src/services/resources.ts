import type {
  V1AppointmentType,
  V1CommunicationThread,
  V1Contact,
  V1FormSubmission,
  V1Location,
  V1ParkingAssignment,
  V1ParkingZone,
  V1RsvpOption,
} from '@vsf/contract';
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
import { TeamResource } from './standard/team-resource.js';

/**
 * Every team resource whose standard operations are served here, by SDK namespace. Most are one line: the
 * contract and RESOURCE_TABLES say the rest. A resource with behaviour of its own is a class in resources/.
 */
export function createResources(deps: MediaDeps & DeliveryDeps & SocialDeps & WebhookServiceDeps) {
  return {
    appointments: new Appointments(deps),
    appointmentTypes: new TeamResource<V1AppointmentType>(deps, 'appointmentTypes', { defaults: { isActive: true } }),
    cars: new Cars(deps),
    'cars.events': new CarEvents(deps),
    'cars.photos': new CarPhotos(deps),
    customers: new Customers(deps),
    eventTypes: new EventTypes(deps),
    communicationThreads: new TeamResource<V1CommunicationThread>(deps, 'communicationThreads'),
    'communicationThreads.messages': new CommunicationMessages(deps),
    'marketing.templates': new Templates(deps),
    'marketing.forms': new Forms(deps),
    'marketing.forms.submissions': new TeamResource<V1FormSubmission>(deps, 'marketing.forms.submissions'),
    'marketing.socialAccounts': new SocialAccounts(deps),
    'marketing.socialPosts': new SocialPosts(deps),
    'marketing.socialEvents': new SocialEvents(deps),
    'marketing.socialEvents.rsvpOptions': new TeamResource<V1RsvpOption>(deps, 'marketing.socialEvents.rsvpOptions', {
      defaults: { description: null, attending: true, sortOrder: 0 },
      conflicts: { inUse: 'RSVPs chose this option; move them to another option first' },
    }),
    'marketing.socialEvents.invites': new SocialEventInvites(deps),
    'marketing.socialEvents.rsvps': new SocialEventRsvps(deps),
    'marketing.campaigns': new Campaigns(deps),
    'marketing.campaigns.audiences': new CampaignAudiences(deps),
    'marketing.campaigns.content': new CampaignContentSteps(deps),
    'marketing.campaigns.sends': new CampaignSends(deps),
    'marketing.assets': new MarketingAssets(deps),
    'marketing.assetFolders': new AssetFolders(deps),
    webhooks: new Webhooks(deps),
    contacts: new TeamResource<V1Contact>(deps, 'contacts', {
      defaults: { role: 'other', isPrimary: false, canAccessPortal: false },
    }),
    locations: new TeamResource<V1Location>(deps, 'locations', {
      defaults: { isActive: true },
      conflicts: {
        inUse: 'Location is still in use by cars, customers or parking zones; set isActive to false instead',
      },
    }),
    'parking.zones': new TeamResource<V1ParkingZone>(deps, 'parking.zones', {
      defaults: { isActive: true },
      conflicts: { inUse: 'The zone still has spots, cars or history; set isActive to false instead' },
    }),
    'parking.spots': new ParkingSpots(deps),
    'parking.assignments': new TeamResource<V1ParkingAssignment>(deps, 'parking.assignments', {
      filters: {
        active: (q, value, column) => {
          if (value === true) q.whereNull(column('endedAt'));
          if (value === false) q.whereNotNull(column('endedAt'));
        },
      },
    }),
  };
}

export type Resources = ReturnType<typeof createResources>;
