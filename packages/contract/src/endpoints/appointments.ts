import { defineGroup, defineResource } from '../define-resource.js';
import * as appointment from '../schemas/appointment.js';
import { TimestampWithOffset } from '../schemas/common.js';
import { z } from '../zod.js';

const scheduling = defineGroup({ surface: 'v1', prefix: '', scope: 'appointments' });

export const appointments = defineResource(scheduling, {
  name: 'Appointment',
  path: '/appointments',
  record: appointment.V1Appointment,
  createBody: appointment.V1AppointmentCreate,
  updateBody: appointment.V1AppointmentUpdate,
  filters: {
    carId: z.uuid().optional(),
    customerId: z.uuid().optional(),
    from: TimestampWithOffset.optional().openapi({ description: 'Only appointments ending after this time' }),
    to: TimestampWithOffset.optional().openapi({ description: 'Only appointments starting before this time' }),
  },
  operations: ['create', 'list', 'get', 'update'],
  references: ['carId', 'customerId'],
  create: {
    summary: 'Schedule an event for later',
    description:
      'Send `eventType` (a value) or `eventTypeId`, or instead an `appointmentTypeId`. The appointment gets its own `sessionId` for staff; scheduling never moves a car.',
  },
  update: { summary: 'Reschedule or edit an appointment', errors: [409] },
  actions: {
    cancel: {
      summary: 'Cancel an appointment',
      description: 'Cancelling a cancelled appointment keeps its first `cancelledAt`.',
      response: 'The cancelled appointment',
    },
  },
});

export const appointmentTypes = defineResource(scheduling, {
  name: 'AppointmentType',
  noun: 'appointment type',
  path: '/appointment-types',
  ...appointment.appointmentTypeTable,
  operations: ['list', 'get', 'create', 'update'],
});
