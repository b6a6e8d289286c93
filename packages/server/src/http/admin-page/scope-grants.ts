import type { ScopeResource } from '@vsf/contract';

/**
 * What each scope resource grants, worded as the spec's scope table, so the admin page can say what a
 * checkbox gives away. Keyed by every resource: a new resource fails the typecheck until it is described.
 */
export const SCOPE_GRANTS: Record<ScopeResource, string> = {
  cars: 'Cars, car events and car photos; read also lists event types',
  customers: 'Customers',
  contacts: 'Contacts',
  locations: 'Locations',
  parking: 'Parking zones, spots and assignments',
  appointments: 'Appointments; read also lists event types',
  communications: 'Communication threads and messages',
  campaigns: 'Marketing campaigns (audiences, content steps, sends), social posts, connected social accounts, calendar',
  templates: 'Marketing templates',
  forms: 'Marketing forms and submissions',
  'social-events': 'Social events, RSVP options, invites and RSVPs; read also covers the marketing calendar',
  'marketing-assets': 'Marketing assets and asset folders',
  webhooks: 'Webhook endpoints and their delivery logs; an endpoint delivers only events its creator could read',
};
