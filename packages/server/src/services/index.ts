import type { MessagingProviders } from '../providers/messaging/delivery-provider.js';
import { AuthService } from './auth-service.js';
import { MarketingCalendarService } from './marketing-calendar-service.js';
import { MediaReader } from './media-reader.js';
import type { SocialDeps } from './resources/social-posts.js';
import { createResources } from './resources.js';
import type { MediaDeps } from './service-deps.js';
import { TeamsService } from './teams-service.js';

export type Services = ReturnType<typeof createServices>;

/** Everything the services need: the database, clock, media bytes and message providers. */
export interface AllServiceDeps extends MediaDeps, SocialDeps {
  messaging: MessagingProviders;
}

export function createServices(deps: AllServiceDeps) {
  return {
    /** The standard operations of every resource served by the generic implementation. */
    resources: createResources(deps),
    /** The team's stored bytes (`GET /api/media/{id}`), whichever resource they belong to. */
    media: new MediaReader(deps),
    auth: new AuthService(deps),
    teams: new TeamsService(deps),
    marketingCalendar: new MarketingCalendarService(deps),
  };
}
