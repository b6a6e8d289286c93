import { DEFAULT_EVENTS_RETENTION_DAYS } from '@vsf/contract';
import type { MessagingProviders } from '../providers/messaging/delivery-provider.js';
import { RECORDED_NAMESPACES } from '../repositories/resource-tables.js';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';
import { DEFAULT_WEBHOOK_OPTIONS, type WebhookOptions } from '../webhooks/webhook-options.js';
import { AuthService } from './auth-service.js';
import { type AnyResource, type EventsOptions, EventsService } from './events-service.js';
import { lazyRecordOf } from './lazy-record.js';
import { MarketingCalendarService } from './marketing-calendar-service.js';
import { MediaReader } from './media-reader.js';
import { MembersService } from './members-service.js';
import type { SocialDeps } from './resources/social-posts.js';
import { createResources, type Resources } from './resources.js';
import type { MediaDeps } from './service-deps.js';
import { TeamsService } from './teams-service.js';

export interface Services {
  resources: Resources;
  events: EventsService;
  webhookDispatcher: WebhookDispatcher;
  media: MediaReader;
  auth: AuthService;
  teams: TeamsService;
  members: MembersService;
  marketingCalendar: MarketingCalendarService;
}

/** Everything the services need: the database, clock, media bytes and message providers. */
export interface AllServiceDeps extends MediaDeps, SocialDeps {
  messaging: MessagingProviders;
  /** The `events` extension's retention; 30 days when absent. */
  events?: EventsOptions | undefined;
  /** Webhook deliveries' options (the `webhooks` extension); the defaults when absent. */
  webhooks?: WebhookOptions | undefined;
  /** DNS for webhook deliveries; the system resolver when absent (tests stub it). */
  webhookResolve?: ((hostname: string) => Promise<string[]>) | undefined;
}

type ServicesDeps = AllServiceDeps & { webhooks: WebhookOptions };

const servicesOf = lazyRecordOf<ServicesDeps, Services>({
  /** The standard operations of every resource served by the generic implementation. */
  resources: (deps) => createResources(deps),
  /** The feed of the team's changes (the `events` extension). */
  events: (deps, services) => {
    const served: Readonly<Record<string, AnyResource>> = services.resources;
    return new EventsService(
      deps,
      RECORDED_NAMESPACES.map((namespace) => served[namespace] as AnyResource),
      {
        retentionDays: deps.events?.retentionDays ?? DEFAULT_EVENTS_RETENTION_DAYS,
        stopping: deps.events?.stopping,
        wake: deps.events?.wake,
      },
    );
  },
  /** Sends the team's events to its webhook endpoints; the server starts it, tests may run a pass. */
  webhookDispatcher: (deps, services) =>
    new WebhookDispatcher(
      { ...deps, events: services.events, resolve: deps.webhookResolve, wake: deps.events?.wake },
      deps.webhooks,
    ),
  /** The team's stored bytes (`GET /api/media/{id}`), whichever resource they belong to. */
  media: (deps) => new MediaReader(deps),
  auth: (deps) => new AuthService(deps),
  teams: (deps) => new TeamsService(deps),
  members: (deps) => new MembersService(deps),
  marketingCalendar: (deps) => new MarketingCalendarService(deps),
});

/** Each service made on first use (lazy-record.ts): a request's transaction gets its own and reads one or two. */
export function createServices(deps: AllServiceDeps): Services {
  return servicesOf({ ...deps, webhooks: deps.webhooks ?? DEFAULT_WEBHOOK_OPTIONS });
}
