import { DEFAULT_EVENTS_RETENTION_DAYS } from '@vsf/contract';
import type { MessagingProviders } from '../providers/messaging/delivery-provider.js';
import { AuthService } from './auth-service.js';
import { type EventsOptions, EventsService } from './events-service.js';
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
  /** The `events` extension's retention; 30 days when absent. */
  events?: EventsOptions | undefined;
}

export function createServices(deps: AllServiceDeps) {
  const resources = createResources(deps);
  return {
    /** The standard operations of every resource served by the generic implementation. */
    resources,
    /** The feed of the team's changes (the `events` extension). */
    events: new EventsService(deps, Object.values(resources), {
      retentionDays: deps.events?.retentionDays ?? DEFAULT_EVENTS_RETENTION_DAYS,
      stopping: deps.events?.stopping,
    }),
    /** The team's stored bytes (`GET /api/media/{id}`), whichever resource they belong to. */
    media: new MediaReader(deps),
    auth: new AuthService(deps),
    teams: new TeamsService(deps),
    marketingCalendar: new MarketingCalendarService(deps),
  };
}
