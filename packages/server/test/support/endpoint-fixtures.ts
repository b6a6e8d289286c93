import type { ApiCaller } from './api-caller.js';
import { communicationsFixtures, communicationsRecordFactories } from './communications-fixtures.js';
import { derivedFixtures, derivedRecordFactories } from './derived-fixtures.js';
import { engagementFixtures, engagementRecordFactories } from './engagement-fixtures.js';

/**
 * What the contract-driven suites (scope matrix, tenant isolation) need to call each endpoint as a
 * user would. Every endpoint in `apiEndpoints` must have an entry: the suites fail for one without.
 */
export interface EndpointFixture {
  /** A body that passes validation (ids are filled in from the world by `{{paramName}}` placeholders). */
  body?: unknown;
  query?: Record<string, string>;
  /** Set when the endpoint takes no record id, so tenant isolation has nothing to prove for it. */
  noRecordIds?: true;
}

/** Creates one record for a path parameter name, given the ids created so far (in dependency order). */
export type RecordFactory = (api: ApiCaller, ids: Record<string, string>) => Promise<string>;

async function created(api: ApiCaller, path: string, body: unknown): Promise<string> {
  const res = await api('POST', path, { body });
  if (res.status !== 201) throw new Error(`fixture POST ${path} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { data: { id: string } }).data.id;
}

/** Path parameter name → how to make such a record. Order matters: later factories may use earlier ids. */
const handWrittenFactories: [param: string, factory: RecordFactory][] = [
  ['locationId', (api) => created(api, '/locations', { name: 'Fixture location' })],
  [
    'customerId',
    (api, ids) =>
      created(api, '/customers', {
        firstName: 'Fix',
        lastName: 'Ture',
        email: 'fix@example.com',
        phone: '+15555550100',
        locationId: ids.locationId,
      }),
  ],
  [
    'contactId',
    (api, ids) => created(api, '/contacts', { customerId: ids.customerId, firstName: 'Con', lastName: 'Tact' }),
  ],
  [
    'carId',
    (api, ids) => created(api, '/cars', { year: 1999, make: 'Fixture', model: 'Car', customerId: ids.customerId }),
  ],
  ['parkingZoneId', (api, ids) => created(api, '/parking-zones', { name: 'Fixture zone', locationId: ids.locationId })],
  [
    'parkingSpotId',
    (api, ids) =>
      created(api, '/parking-spots', {
        name: `F-${Math.random().toString(36).slice(2, 8)}`,
        parkingZoneId: ids.parkingZoneId,
      }),
  ],
  [
    'eventTypeId',
    (api) =>
      created(api, '/event-types', {
        value: `fixture_${Math.random().toString(36).slice(2, 8)}`,
        name: 'Fixture',
        scope: 'vehicle',
      }),
  ],
  [
    'sessionId',
    async (api, ids) => {
      const res = await api('POST', `/cars/${ids.carId}/events`, {
        body: { activityType: 'drop_off', parkingSpotId: ids.parkingSpotId },
      });
      if (res.status !== 201) throw new Error(`fixture drop-off failed: ${res.status} ${JSON.stringify(res.body)}`);
      return (res.body as { data: { sessionId: string } }).data.sessionId;
    },
  ],
  [
    'carEventId',
    async (api, ids) => {
      const res = await api('GET', `/cars/${ids.carId}/events`, { query: { activityType: 'drop_off' } });
      return (res.body as { data: { id: string }[] }).data[0]?.id as string;
    },
  ],
  [
    'photoId',
    (api, ids) =>
      created(api, `/cars/${ids.carId}/photos`, {
        sessionId: ids.sessionId,
        filename: 'fixture.png',
        contentType: 'image/png',
        base64: TINY_PNG,
      }),
  ],
  [
    'mediaId',
    async (api, ids) => {
      const photo = await api('GET', `/cars/${ids.carId}/photos/${ids.photoId}`);
      return (photo.body as { data: { url: string } }).data.url.split('/').pop() as string;
    },
  ],
  [
    'appointmentTypeId',
    async (api, _ids) =>
      created(api, '/appointment-types', { name: 'Fixture pick-up', eventTypeId: await eventTypeIdOf(api, 'pick_up') }),
  ],
  [
    'appointmentId',
    (api, ids) =>
      created(api, '/appointments', {
        eventType: 'pick_up',
        carId: ids.carId,
        startAt: '2030-01-01T10:00:00Z',
        endAt: '2030-01-01T11:00:00Z',
      }),
  ],
  [
    'parkingAssignmentId',
    async (api, ids) => {
      const res = await api('GET', '/parking-assignments', { query: { carId: ids.carId as string, active: 'true' } });
      return (res.body as { data: { id: string }[] }).data[0]?.id as string;
    },
  ],
  ...communicationsRecordFactories,
  ...engagementRecordFactories,
  [
    'webhookId',
    // Never delivered to: test servers run no dispatcher unless a suite turns it on.
    (api) => created(api, '/webhooks', { url: 'https://hooks.example.com/vsf', eventTypes: ['*'] }),
  ],
];

async function eventTypeIdOf(api: ApiCaller, value: string): Promise<string> {
  const res = await api('GET', '/event-types', { query: { limit: '200' } });
  return (res.body as { data: { id: string; value: string }[] }).data.find((t) => t.value === value)?.id as string;
}

/** A 1×1 PNG, base64. */
export const TINY_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const handWrittenFixtures: Record<string, EndpointFixture> = {
  getAuthKey: { noRecordIds: true },
  listEvents: { noRecordIds: true },
  listCars: { noRecordIds: true },
  createCar: { body: { year: 2001, make: 'Mazda', model: 'Miata' }, noRecordIds: true },
  getCar: {},
  updateCar: { body: { color: 'red' } },
  listCustomers: { noRecordIds: true },
  createCustomer: { body: { firstName: 'Ada', lastName: 'Lovelace' }, noRecordIds: true },
  getCustomer: {},
  updateCustomer: { body: { city: 'London' } },
  deleteCustomer: {},
  listContacts: { noRecordIds: true },
  createContact: { body: { customerId: '{{customerId}}', firstName: 'A', lastName: 'B' } },
  getContact: {},
  updateContact: { body: { phone: '+15555550101' } },
  deleteContact: {},
  listLocations: { noRecordIds: true },
  createLocation: { body: { name: 'Annex' }, noRecordIds: true },
  getLocation: {},
  updateLocation: { body: { city: 'Austin' } },
  deleteLocation: {},
  listEventTypes: { noRecordIds: true },
  getEventType: {},
  createEventType: { body: { value: 'fixture_created', name: 'Created', scope: 'facility' }, noRecordIds: true },
  updateEventType: { body: { name: 'Renamed' } },
  listParkingZones: { noRecordIds: true },
  getParkingZone: {},
  createParkingZone: { body: { name: 'Zone B' }, noRecordIds: true },
  updateParkingZone: { body: { capacity: 12 } },
  deleteParkingZone: {},
  listParkingSpots: { noRecordIds: true },
  getParkingSpot: {},
  createParkingSpot: { body: { name: 'B-1', parkingZoneId: '{{parkingZoneId}}' } },
  updateParkingSpot: { body: { isActive: false } },
  deleteParkingSpot: {},
  listParkingAssignments: { noRecordIds: true },
  getParkingAssignment: {},
  createCarEvent: { body: { activityType: 'inspection', notes: 'fixture' } },
  listCarEvents: {},
  getCarEvent: {},
  createCarPhoto: {
    body: { sessionId: '{{sessionId}}', filename: 'f.png', contentType: 'image/png', base64: TINY_PNG },
  },
  listCarPhotos: {},
  getCarPhoto: {},
  downloadMedia: {},
  createAppointment: {
    body: {
      eventType: 'facility_walkthrough',
      startAt: '2030-02-01T09:00:00+01:00',
      endAt: '2030-02-01T10:00:00+01:00',
    },
    noRecordIds: true,
  },
  listAppointments: { noRecordIds: true },
  getAppointment: {},
  updateAppointment: { body: { notes: 'bring keys' } },
  cancelAppointment: {},
  listAppointmentTypes: { noRecordIds: true },
  getAppointmentType: {},
  createAppointmentType: { body: { name: 'Consultation', eventTypeId: '{{eventTypeId}}' }, noRecordIds: true },
  updateAppointmentType: { body: { durationMinutes: 30 } },
  ...communicationsFixtures,
  ...engagementFixtures,
  listWebhooks: { noRecordIds: true },
  createWebhook: {
    body: { url: 'https://hooks.example.com/fixture', eventTypes: ['car.created', 'car.updated'] },
    noRecordIds: true,
  },
  getWebhook: {},
  updateWebhook: { body: { description: 'Fixture endpoint' } },
  deleteWebhook: {},
  listWebhookDeliveries: {},
};

/**
 * Every endpoint's fixture: the hand-written ones above, and for a resource none were written for, fixtures
 * derived from the contract (derived-fixtures.ts), so a new resource needs no line here.
 */
export const endpointFixtures: Record<string, EndpointFixture> = {
  ...derivedFixtures(new Set(Object.keys(handWrittenFixtures))),
  ...handWrittenFixtures,
};

/** Path parameter name → how to make such a record, hand-written first, then derived for the rest. */
export const recordFactories: [param: string, factory: RecordFactory][] = [
  ...handWrittenFactories,
  ...derivedRecordFactories(new Set(handWrittenFactories.map(([param]) => param)), (value, ids) => fillIds(value, ids)),
];

/** Replaces `{{param}}` placeholders in a fixture body with ids from a world. */
export function fillIds(value: unknown, ids: Record<string, string>): unknown {
  if (typeof value === 'string') {
    // Only `{{somethingId}}`: template bodies carry `{{firstName}}`-style variables of their own.
    return value.replace(/\{\{(\w+Id)\}\}/g, (_, name: string) => {
      const id = ids[name];
      if (!id) throw new Error(`fixture needs a ${name}; add a record factory for it`);
      return id;
    });
  }
  if (Array.isArray(value)) return value.map((v) => fillIds(v, ids));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillIds(v, ids)]));
  }
  return value;
}

/** One record of every kind the factories know, owned by the key's team. */
export async function createWorld(api: ApiCaller): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const [param, factory] of recordFactories) {
    // Path parameters name record kinds across the whole API: one name, one kind.
    if (param in ids) throw new Error(`two record factories for ${param}; give one path parameter another name`);
    ids[param] = await factory(api, ids);
  }
  return ids;
}
