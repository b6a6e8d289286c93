import { defineGroup, defineResource, idParams } from '../define-resource.js';
import { defineEndpoint } from '../endpoint.js';
import {
  V1Appointment,
  V1AppointmentCreate,
  V1AppointmentType,
  V1AppointmentTypeCreate,
  V1AppointmentTypeUpdate,
  V1AppointmentUpdate,
} from '../schemas/appointment.js';
import { dataResponse, TimestampWithOffset } from '../schemas/common.js';
import { z } from '../zod.js';

const scheduling = defineGroup({ surface: 'v1', prefix: '', scope: 'appointments' });

const appointments = defineResource(scheduling, {
  name: 'Appointment',
  path: '/appointments',
  id: 'appointmentId',
  sdk: 'appointments',
  label: 'Appointment',
  record: V1Appointment,
  create: V1AppointmentCreate,
  update: V1AppointmentUpdate,
  filters: {
    carId: z.uuid().optional(),
    customerId: z.uuid().optional(),
    from: TimestampWithOffset.optional().openapi({ description: 'Only appointments ending after this time' }),
    to: TimestampWithOffset.optional().openapi({ description: 'Only appointments starting before this time' }),
  },
  operations: {
    create: {
      summary: 'Schedule an event for later',
      description:
        'Send `eventType` (a value) or `eventTypeId`, or instead an `appointmentTypeId`. The appointment gets its own `sessionId` for staff; scheduling never moves a car.',
      references: ['carId', 'customerId'],
    },
    list: {},
    get: {},
    update: { summary: 'Reschedule or edit an appointment', references: ['carId', 'customerId'], errors: [409] },
  },
});

const appointmentTypes = defineResource(scheduling, {
  name: 'AppointmentType',
  path: '/appointment-types',
  id: 'appointmentTypeId',
  sdk: 'appointmentTypes',
  label: 'Appointment type',
  record: V1AppointmentType,
  create: V1AppointmentTypeCreate,
  update: V1AppointmentTypeUpdate,
  operations: {
    list: {},
    get: {},
    create: { references: ['eventTypeId'] },
    update: { references: ['eventTypeId'] },
  },
});

export const { createAppointment, listAppointments, getAppointment, updateAppointment } = appointments.endpoints;
export const { listAppointmentTypes, getAppointmentType, createAppointmentType, updateAppointmentType } =
  appointmentTypes.endpoints;

export const cancelAppointment = defineEndpoint({
  operationId: 'cancelAppointment',
  surface: 'v1',
  method: 'post',
  path: '/appointments/{appointmentId}/cancel',
  summary: 'Cancel an appointment',
  description: 'Cancelling a cancelled appointment keeps its first `cancelledAt`.',
  scopes: appointments.scopes.write,
  sdk: { namespace: appointments.sdk, method: 'cancel' },
  params: idParams('appointmentId'),
  response: { status: 200, description: 'The cancelled appointment', schema: dataResponse(V1Appointment) },
  resourceName: appointments.label,
});
