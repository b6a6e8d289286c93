import { z } from '../zod.js';
import { NameText } from './bounds.js';
import { teamRecord } from './team-record.js';

export const EventTypeScope = z.enum(['vehicle', 'customer', 'facility']).openapi('EventTypeScope', {
  description: '`vehicle` needs a car, `customer` needs a customer, `facility` needs neither',
});

export const V1EventType = teamRecord('V1EventType', {
  value: z.string().openapi({ description: 'Machine name, e.g. `drop_off`', example: 'drop_off' }),
  name: z.string().openapi({ example: 'Drop-off' }),
  scope: EventTypeScope,
  config: z.object({ requiresParkingSpot: z.boolean() }),
  isDefault: z.boolean().openapi({ description: 'True for the types every team starts with' }),
});
export type V1EventType = z.infer<typeof V1EventType>;

const eventTypeConfig = z.strictObject({ requiresParkingSpot: z.boolean() });

export const V1EventTypeCreate = z
  .strictObject({
    value: z
      .string()
      .max(63)
      .regex(/^[a-z][a-z0-9_]{0,62}$/, 'Use lowercase letters, digits and underscores, starting with a letter')
      .openapi({ example: 'detailing' }),
    name: NameText.min(1).openapi({ example: 'Detailing' }),
    scope: EventTypeScope,
    config: eventTypeConfig.optional(),
  })
  .openapi('V1EventTypeCreate');
export type V1EventTypeCreate = z.input<typeof V1EventTypeCreate>;

export const V1EventTypeUpdate = z
  .strictObject({
    name: NameText.min(1).optional(),
    scope: EventTypeScope.optional(),
    config: eventTypeConfig.optional(),
  })
  .openapi('V1EventTypeUpdate', { description: 'The `value` is the type’s identity and cannot change' });
export type V1EventTypeUpdate = z.input<typeof V1EventTypeUpdate>;

/** Every team starts with these; `drop_off` and `pick_up` drive parking, the others cover each scope. */
export const DEFAULT_EVENT_TYPES = [
  { value: 'drop_off', name: 'Drop-off', scope: 'vehicle', requiresParkingSpot: true },
  { value: 'pick_up', name: 'Pick-up', scope: 'vehicle', requiresParkingSpot: false },
  { value: 'interior_cleaning', name: 'Interior cleaning', scope: 'vehicle', requiresParkingSpot: false },
  { value: 'inspection', name: 'Inspection', scope: 'vehicle', requiresParkingSpot: false },
  { value: 'customer_consultation', name: 'Customer consultation', scope: 'customer', requiresParkingSpot: false },
  { value: 'facility_walkthrough', name: 'Facility walkthrough', scope: 'facility', requiresParkingSpot: false },
] as const satisfies readonly (Pick<V1EventType, 'value' | 'name' | 'scope'> & { requiresParkingSpot: boolean })[];
