import type { CoreEndpoints } from '@vsf/contract';
import { type HandlerMap, listBody } from '../handler.js';

/** Keys, cars, customers, contacts, locations, event types: every handler works inside the calling key's team (`auth.teamId`). */
export const coreHandlers: HandlerMap<CoreEndpoints> = {
  getAuthKey: async ({ auth }) => ({
    data: {
      id: auth.keyId,
      name: auth.keyName,
      prefix: auth.prefix,
      teamId: auth.teamId,
      scopes: [...auth.scopes],
      expiresAt: auth.expiresAt,
      createdAt: auth.createdAt,
    },
  }),

  listCars: async ({ auth, query, services }) => listBody(query, await services.cars.list(auth.teamId, query)),
  getCar: async ({ auth, params, services }) => ({ data: await services.cars.get(auth.teamId, params.carId) }),
  createCar: async ({ auth, body, services }) => ({ data: await services.cars.create(auth.teamId, body) }),
  updateCar: async ({ auth, params, body, services }) => ({
    data: await services.cars.update(auth.teamId, params.carId, body),
  }),

  listCustomers: async ({ auth, query, services }) =>
    listBody(query, await services.customers.list(auth.teamId, query)),
  getCustomer: async ({ auth, params, services }) => ({
    data: await services.customers.get(auth.teamId, params.customerId),
  }),
  createCustomer: async ({ auth, body, services }) => ({ data: await services.customers.create(auth.teamId, body) }),
  updateCustomer: async ({ auth, params, body, services }) => ({
    data: await services.customers.update(auth.teamId, params.customerId, body),
  }),
  deleteCustomer: async ({ auth, params, services }) => ({
    data: await services.customers.softDelete(auth.teamId, params.customerId),
  }),

  listContacts: async ({ auth, query, services }) => listBody(query, await services.contacts.list(auth.teamId, query)),
  getContact: async ({ auth, params, services }) => ({
    data: await services.contacts.get(auth.teamId, params.contactId),
  }),
  createContact: async ({ auth, body, services }) => ({ data: await services.contacts.create(auth.teamId, body) }),
  updateContact: async ({ auth, params, body, services }) => ({
    data: await services.contacts.update(auth.teamId, params.contactId, body),
  }),
  deleteContact: async ({ auth, params, services }) => ({
    data: await services.contacts.delete(auth.teamId, params.contactId),
  }),

  listLocations: async ({ auth, query, services }) =>
    listBody(query, await services.locations.list(auth.teamId, query)),
  getLocation: async ({ auth, params, services }) => ({
    data: await services.locations.get(auth.teamId, params.locationId),
  }),
  createLocation: async ({ auth, body, services }) => ({ data: await services.locations.create(auth.teamId, body) }),
  updateLocation: async ({ auth, params, body, services }) => ({
    data: await services.locations.update(auth.teamId, params.locationId, body),
  }),
  deleteLocation: async ({ auth, params, services }) => ({
    data: await services.locations.delete(auth.teamId, params.locationId),
  }),

  listEventTypes: async ({ auth, query, services }) =>
    listBody(query, await services.eventTypes.list(auth.teamId, query)),
  getEventType: async ({ auth, params, services }) => ({
    data: await services.eventTypes.get(auth.teamId, params.eventTypeId),
  }),
  createEventType: async ({ auth, body, services }) => ({ data: await services.eventTypes.create(auth.teamId, body) }),
  updateEventType: async ({ auth, params, body, services }) => ({
    data: await services.eventTypes.update(auth.teamId, params.eventTypeId, body),
  }),
};
