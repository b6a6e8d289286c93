import type { FieldScope, ScopeRequirement } from '../endpoint.js';

const parking: ScopeRequirement = { all: ['write:parking'] };

/** What a car holds that a pick-up or a `null` place frees: without it, they change no parking record. */
const carHolds = 'the car holds a spot or zone';

/** A car's location fields take and free parking spots, wherever they are sent. */
export const carPlacementFieldScopes: readonly FieldScope[] = [
  {
    field: 'parkingSpotId',
    scopes: parking,
    effect: 'places the car in (or, as `null`, takes it out of) a parking spot',
    whenHeld: { values: [null], holds: carHolds },
  },
  {
    field: 'parkingZoneId',
    scopes: parking,
    effect: 'places the car in (or, as `null`, takes it out of) a parking zone',
    whenHeld: { values: [null], holds: carHolds },
  },
];

/** The default event type that takes a car out of the facility, ending its stay and freeing its spot. */
export const PICK_UP_ACTIVITY = 'pick_up';

export const carEventFieldScopes: readonly FieldScope[] = [
  { field: 'parkingSpotId', scopes: parking, effect: 'moves the car into a parking spot' },
  { field: 'parkingZoneId', scopes: parking, effect: 'moves the car into a parking zone' },
  {
    field: 'activityType',
    values: [PICK_UP_ACTIVITY],
    scopes: parking,
    effect: 'ends the car’s parking stay and frees its spot',
    whenHeld: { values: [PICK_UP_ACTIVITY], holds: carHolds },
  },
];
