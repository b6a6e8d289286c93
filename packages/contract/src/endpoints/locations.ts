import { defineResource } from '../define-resource.js';
import { locationTable } from '../schemas/location.js';
import { v1 } from './groups.js';

export const locations = defineResource(v1, {
  name: 'Location',
  path: '/locations',
  scope: 'locations',
  ...locationTable,
  create: { response: 'The created location' },
  update: { response: 'The updated location' },
  delete: {
    description:
      'Only a location nothing refers to can be deleted (409 otherwise); to retire a location in use, set `isActive: false`.',
    response: 'The location is deleted',
    inUse: 'Location is still in use by cars, customers or parking zones; set isActive to false instead',
  },
});
