import { z } from '../zod.js';
import { Timestamp, Uuid } from './common.js';

export const EventTypeScope = z.enum(['vehicle', 'customer', 'facility']).openapi('EventTypeScope', {
  description: '`vehicle` needs a car, `customer` needs a customer, `facility` needs neither',
});

export const V1EventType = z
  .object({
    id: Uuid,
    teamId: z.string(),
    value: z.string().openapi({ description: 'Machine name, e.g. `drop_off`', example: 'drop_off' }),
    name: z.string().openapi({ example: 'Drop-off' }),
    scope: EventTypeScope,
    config: z.object({ requiresParkingSpot: z.boolean() }),
    isDefault: z.boolean().openapi({ description: 'True for the types every team starts with' }),
    createdAt: Timestamp.nullable(),
    updatedAt: Timestamp.nullable(),
  })
  .openapi('V1EventType');
export type V1EventType = z.infer<typeof V1EventType>;
