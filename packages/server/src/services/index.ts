import { DEFAULT_EVENTS_RETENTION_DAYS } from '@vsf/contract';
import type { MessagingProviders } from '../providers/messaging/delivery-provider.js';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';
import { DEFAULT_WEBHOOK_OPTIONS, type WebhookOptions } from '../webhooks/webhook-options.js';
import { AuthService } from './auth-service.js';
import { type AnyResource, type EventsOptions, EventsService } from './events-service.js';
import { lazyRecord } from './lazy-record.js';
import { MarketingCalendarService } from './marketing-calendar-service.js';
import { MediaReader } from './media-reader.js';
import type { SocialDeps } from './resources/social-posts.js';
import { createResources } from './resources.js';
import type { MediaDeps } from './service-deps.js';
import { RECORDED_NAMESPACES } from './standard/resource-tables.js';
import { TeamsService } from './teams-service.js';

export type Services = ReturnType<typeof createServices>;

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

export function createServices(deps: AllServiceDeps) {
  const webhookOptions = deps.webhooks ?? DEFAULT_WEBHOOK_OPTIONS;
  const resources = createResources({ ...deps, webhooks: webhookOptions });
  const served: Readonly<Record<string, AnyResource>> = resources;
  let events: EventsService | undefined;
  const eventsService = () =>
    (events ??= new EventsService(
      deps,
      RECORDED_NAMESPACES.map((namespace) => served[namespace] as AnyResource),
      {
        retentionDays: deps.events?.retentionDays ?? DEFAULT_EVENTS_RETENTION_DAYS,
        stopping: deps.events?.stopping,
      },
    ));
  // Made on first use (lazy-record.ts): a request's transaction gets its own services and reads one or two.
  return lazyRecord({
    /** The standard operations of every resource served by the generic implementation. */
    resources: () => resources,
    /** The feed of the team's changes (the `events` extension). */
    events: eventsService,
    /** Sends the team's events to its webhook endpoints; the server starts it, tests may run a pass. */
    webhookDispatcher: () =>
      new WebhookDispatcher({ ...deps, events: eventsService(), resolve: deps.webhookResolve }, webhookOptions),
    /** The team's stored bytes (`GET /api/media/{id}`), whichever resource they belong to. */
    media: () => new MediaReader(deps),
    auth: () => new AuthService(deps),
    teams: () => new TeamsService(deps),
    marketingCalendar: () => new MarketingCalendarService(deps),
  });
}
