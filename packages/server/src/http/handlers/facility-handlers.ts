import type { FacilityEndpoints } from '@vsf/contract';
import { mediaHeaders } from '../../media/media-headers.js';
import { requireScopes } from '../../services/auth-service.js';
import type { SpecialHandlers } from '../handler.js';

/** Parking, car events and photos, appointments. */
export const facilityHandlers = {
  // The scope depends on what the id names, so it is checked once the file is found: a car photo needs
  // read:cars, an asset read:marketing-assets; another team's media is as unknown as a missing one.
  downloadMedia: async ({ auth, params, services }) => {
    const { row, bytes } = await services.media.read(auth.teamId, params.mediaId);
    requireScopes(auth, { all: [row.kind === 'car_photo' ? 'read:cars' : 'read:marketing-assets'] });
    return { bytes, headers: mediaHeaders(row) };
  },
  cancelAppointment: async ({ auth, params, services }) => ({
    data: await services.resources.appointments.cancel(auth.teamId, params.appointmentId),
  }),
} satisfies SpecialHandlers<FacilityEndpoints>;
