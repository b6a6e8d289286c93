import { field, fieldTable } from '../field-table.js';
import { z } from '../zod.js';
import { Int4, LongText, NameText } from './bounds.js';
import { Timestamp, TimestampWithOffset, Uuid } from './common.js';
import { teamRecord } from './team-record.js';

export const AppointmentStatus = z.enum(['scheduled', 'cancelled']).openapi('AppointmentStatus');

export const V1Appointment = teamRecord(
  'V1Appointment',
  {
    eventTypeId: Uuid,
    eventType: z.string().openapi({ description: 'The event type’s `value`' }),
    appointmentTypeId: Uuid.nullable(),
    carId: Uuid.nullable(),
    customerId: Uuid.nullable(),
    startAt: Timestamp,
    endAt: Timestamp,
    status: AppointmentStatus,
    notes: z.string().nullable(),
    sessionId: Uuid.openapi({
      description:
        'The event session staff use when the appointment happens: once the appointment has a `carId`, `POST /cars/{carId}/photos` takes it like a car event’s',
    }),
    cancelledAt: Timestamp.nullable(),
  },
  'An event scheduled for later. Scheduling never moves a car.',
);
export type V1Appointment = z.infer<typeof V1Appointment>;

export const V1AppointmentCreate = z
  .strictObject({
    eventType: NameText.min(1).optional().openapi({
      description: 'An event type `value`, e.g. `pick_up`',
      // A facility event needs neither car nor customer, so the example is accepted as shown.
      example: 'facility_walkthrough',
    }),
    eventTypeId: Uuid.optional(),
    appointmentTypeId: Uuid.optional().openapi({ description: 'Instead of an event type: a saved appointment type' }),
    startAt: TimestampWithOffset,
    endAt: TimestampWithOffset,
    carId: Uuid.optional(),
    customerId: Uuid.optional(),
    notes: LongText.optional(),
  })
  .superRefine((b, ctx) => {
    const byType = Number(b.eventType !== undefined) + Number(b.eventTypeId !== undefined);
    if (byType > 1)
      ctx.addIssue({ code: 'custom', path: ['eventType'], message: 'Send eventType or eventTypeId, not both' });
    if (byType > 0 && b.appointmentTypeId !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['appointmentTypeId'],
        message: 'Send an event type or an appointmentTypeId, not both',
      });
    }
    if (byType === 0 && b.appointmentTypeId === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['eventType'],
        message: 'Send one of eventType, eventTypeId or appointmentTypeId',
      });
    }
    if (Date.parse(b.endAt) <= Date.parse(b.startAt))
      ctx.addIssue({ code: 'custom', path: ['endAt'], message: 'endAt must be after startAt' });
  })
  .openapi('V1AppointmentCreate', {
    description:
      'The event type’s scope decides what is required: `vehicle` needs `carId`, `customer` needs `customerId`, `facility` neither.',
  });
export type V1AppointmentCreate = z.input<typeof V1AppointmentCreate>;

export const V1AppointmentUpdate = z
  .strictObject({
    startAt: TimestampWithOffset.optional(),
    endAt: TimestampWithOffset.optional(),
    carId: Uuid.nullable().optional(),
    customerId: Uuid.nullable().optional(),
    notes: LongText.nullable().optional(),
  })
  .openapi('V1AppointmentUpdate');
export type V1AppointmentUpdate = z.input<typeof V1AppointmentUpdate>;

/** An appointment type's fields, each once: the record, both bodies and the references follow. */
export const appointmentTypeTable = fieldTable(
  'V1AppointmentType',
  {
    name: field(NameText.min(1), { doc: 'What staff pick, e.g. “Spring pick-up”', example: 'Spring pick-up' }),
    eventTypeId: field(Uuid, { references: 'eventTypes', doc: 'The event type an appointment of this type is' }),
    durationMinutes: field(Int4.min(1), { nullable: true, doc: 'How long one takes, in minutes; null when open' }),
    isActive: field(z.boolean(), { default: true }),
  },
  'A saved kind of appointment (e.g. “Spring pick-up”) over an event type',
);
export const V1AppointmentType = appointmentTypeTable.record;
export type V1AppointmentType = z.infer<typeof V1AppointmentType>;
export const V1AppointmentTypeCreate = appointmentTypeTable.createBody;
export const V1AppointmentTypeUpdate = appointmentTypeTable.updateBody;
