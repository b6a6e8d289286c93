import { defineResource } from '../define-resource.js';
import { carTable } from '../schemas/car.js';
import { v1 } from './groups.js';
import { carPlacementFieldScopes } from './parking-field-scopes.js';

const PLACEMENT =
  '`parkingSpotId` and `parkingZoneId` place the car as a drop-off does, in one transaction: the spot or zone must be the team’s own (400 naming the field), the spot free (409), and the car’s open parking stay ends and a new one starts. `parkingSpotId` alone puts the car in the spot’s zone; with both, the spot must be in that zone. `null` (either field, without an id in the other) takes the car out of parking and frees its spot. A placement equal to the car’s current one changes nothing.';
const placement = { fieldScopes: carPlacementFieldScopes, errors: [409] } as const;

/** Cars; their events and photos (car-events.ts) nest under them. */
export const cars = defineResource(v1, {
  name: 'Car',
  path: '/cars',
  scope: 'cars',
  ...carTable,
  operations: ['list', 'get', 'create', 'update'],
  list: { description: 'Most recently updated first (`updatedAt desc, id desc`).' },
  create: { description: PLACEMENT, response: 'The created car', ...placement },
  update: {
    description: `Only the fields sent change; \`null\` clears a nullable field.\n\n${PLACEMENT}`,
    response: 'The updated car',
    ...placement,
  },
});
