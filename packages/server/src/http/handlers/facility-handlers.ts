import type { FacilityEndpoints } from '@vsf/contract';
import { mediaHeaders } from '../../media/media-headers.js';
import { requireScopes } from '../../services/auth-service.js';
import { type HandlerMap, listBody } from '../handler.js';

/** Parking, car events and photos, appointments. */
export const facilityHandlers: HandlerMap<FacilityEndpoints> = {
  // The scope depends on what the id names, so it is checked once the file is found: a car photo needs
  // read:cars, an asset read:marketing-assets; another team's media is as unknown as a missing one.
  downloadMedia: async ({ auth, params, services }) => {
    const { row, bytes } = await services.photos.read(auth.teamId, params.mediaId);
    requireScopes(auth, { all: [row.kind === 'car_photo' ? 'read:cars' : 'read:marketing-assets'] });
    return { bytes, headers: mediaHeaders(row) };
  },

  listParkingZones: async ({ auth, query, services }) =>
    listBody(query, await services.parking.listZones(auth.teamId, query)),
  getParkingZone: async ({ auth, params, services }) => ({
    data: await services.parking.getZone(auth.teamId, params.parkingZoneId),
  }),
  createParkingZone: async ({ auth, body, services }) => ({
    data: await services.parking.createZone(auth.teamId, body),
  }),
  updateParkingZone: async ({ auth, params, body, services }) => ({
    data: await services.parking.updateZone(auth.teamId, params.parkingZoneId, body),
  }),
  deleteParkingZone: async ({ auth, params, services }) => ({
    data: await services.parking.deleteZone(auth.teamId, params.parkingZoneId),
  }),

  listParkingSpots: async ({ auth, query, services }) =>
    listBody(query, await services.parking.listSpots(auth.teamId, query)),
  getParkingSpot: async ({ auth, params, services }) => ({
    data: await services.parking.getSpot(auth.teamId, params.parkingSpotId),
  }),
  createParkingSpot: async ({ auth, body, services }) => ({
    data: await services.parking.createSpot(auth.teamId, body),
  }),
  updateParkingSpot: async ({ auth, params, body, services }) => ({
    data: await services.parking.updateSpot(auth.teamId, params.parkingSpotId, body),
  }),
  deleteParkingSpot: async ({ auth, params, services }) => ({
    data: await services.parking.deleteSpot(auth.teamId, params.parkingSpotId),
  }),

  listParkingAssignments: async ({ auth, query, services }) =>
    listBody(query, await services.parking.listAssignments(auth.teamId, query)),
  getParkingAssignment: async ({ auth, params, services }) => ({
    data: await services.parking.getAssignment(auth.teamId, params.parkingAssignmentId),
  }),

  createCarEvent: async ({ auth, params, body, services }) => ({
    data: await services.carEvents.create(auth.teamId, params.carId, body),
  }),
  getCarEvent: async ({ auth, params, services }) => ({
    data: await services.carEvents.get(auth.teamId, params.carId, params.carEventId),
  }),
  listCarEvents: async ({ auth, params, query, services }) =>
    listBody(query, await services.carEvents.list(auth.teamId, params.carId, query)),
  createCarPhoto: async ({ auth, params, body, services }) => ({
    data: await services.photos.create(auth.teamId, params.carId, body),
  }),
  getCarPhoto: async ({ auth, params, services }) => ({
    data: await services.photos.get(auth.teamId, params.carId, params.photoId),
  }),
  listCarPhotos: async ({ auth, params, query, services }) =>
    listBody(query, await services.photos.list(auth.teamId, params.carId, query)),
  createAppointment: async ({ auth, body, services }) => ({
    data: await services.appointments.create(auth.teamId, body),
  }),
  listAppointments: async ({ auth, query, services }) =>
    listBody(query, await services.appointments.list(auth.teamId, query)),
  getAppointment: async ({ auth, params, services }) => ({
    data: await services.appointments.get(auth.teamId, params.appointmentId),
  }),
  updateAppointment: async ({ auth, params, body, services }) => ({
    data: await services.appointments.update(auth.teamId, params.appointmentId, body),
  }),
  cancelAppointment: async ({ auth, params, services }) => ({
    data: await services.appointments.cancel(auth.teamId, params.appointmentId),
  }),
  listAppointmentTypes: async ({ auth, query, services }) =>
    listBody(query, await services.appointments.listTypes(auth.teamId, query)),
  getAppointmentType: async ({ auth, params, services }) => ({
    data: await services.appointments.getType(auth.teamId, params.appointmentTypeId),
  }),
  createAppointmentType: async ({ auth, body, services }) => ({
    data: await services.appointments.createType(auth.teamId, body),
  }),
  updateAppointmentType: async ({ auth, params, body, services }) => ({
    data: await services.appointments.updateType(auth.teamId, params.appointmentTypeId, body),
  }),
};
