import { defineEndpoint } from '../endpoint.js';
import {
  V1Appointment,
  V1AppointmentCreate,
  V1AppointmentType,
  V1AppointmentTypeCreate,
  V1AppointmentTypeUpdate,
  V1AppointmentUpdate,
} from '../schemas/appointment.js';
import { dataResponse, listQueryShape, listResponse, TimestampWithOffset } from '../schemas/common.js';
import { readScopes, writeScopes } from '../scopes.js';
import { z } from '../zod.js';
import { idParams } from './shared.js';

const read = { all: readScopes('appointments') };
const write = { all: writeScopes('appointments') };

export const createAppointment = defineEndpoint({
  operationId: 'createAppointment',
  surface: 'v1',
  method: 'post',
  path: '/appointments',
  summary: 'Schedule an event for later',
  description:
    'Send `eventType` (a value) or `eventTypeId`, or instead an `appointmentTypeId`. The appointment gets its own `sessionId` for staff; scheduling never moves a car.',
  scopes: write,
  sdk: { namespace: ['appointments'], method: 'create' },
  references: ['carId', 'customerId'],
  body: V1AppointmentCreate,
  response: { status: 201, description: 'The appointment', schema: dataResponse(V1Appointment) },
});

export const listAppointments = defineEndpoint({
  operationId: 'listAppointments',
  surface: 'v1',
  method: 'get',
  path: '/appointments',
  summary: 'List appointments',
  scopes: read,
  sdk: { namespace: ['appointments'], method: 'list' },
  query: z.strictObject({
    ...listQueryShape,
    carId: z.uuid().optional(),
    customerId: z.uuid().optional(),
    from: TimestampWithOffset.optional().openapi({ description: 'Only appointments ending after this time' }),
    to: TimestampWithOffset.optional().openapi({ description: 'Only appointments starting before this time' }),
  }),
  response: { status: 200, description: 'A page of appointments', schema: listResponse(V1Appointment) },
  paginated: true,
});

export const getAppointment = defineEndpoint({
  operationId: 'getAppointment',
  surface: 'v1',
  method: 'get',
  path: '/appointments/{appointmentId}',
  summary: 'Get an appointment',
  scopes: read,
  sdk: { namespace: ['appointments'], method: 'get' },
  params: idParams('appointmentId'),
  response: { status: 200, description: 'The appointment', schema: dataResponse(V1Appointment) },
  resourceName: 'Appointment',
  errors: [404],
});

export const updateAppointment = defineEndpoint({
  operationId: 'updateAppointment',
  surface: 'v1',
  method: 'patch',
  path: '/appointments/{appointmentId}',
  summary: 'Reschedule or edit an appointment',
  scopes: write,
  sdk: { namespace: ['appointments'], method: 'update' },
  params: idParams('appointmentId'),
  references: ['carId', 'customerId'],
  body: V1AppointmentUpdate,
  response: { status: 200, description: 'The appointment', schema: dataResponse(V1Appointment) },
  resourceName: 'Appointment',
  errors: [404, 409],
});

export const cancelAppointment = defineEndpoint({
  operationId: 'cancelAppointment',
  surface: 'v1',
  method: 'post',
  path: '/appointments/{appointmentId}/cancel',
  summary: 'Cancel an appointment',
  description: 'Cancelling a cancelled appointment keeps its first `cancelledAt`.',
  scopes: write,
  sdk: { namespace: ['appointments'], method: 'cancel' },
  params: idParams('appointmentId'),
  response: { status: 200, description: 'The cancelled appointment', schema: dataResponse(V1Appointment) },
  resourceName: 'Appointment',
  errors: [404],
});

export const listAppointmentTypes = defineEndpoint({
  operationId: 'listAppointmentTypes',
  surface: 'v1',
  method: 'get',
  path: '/appointment-types',
  summary: 'List appointment types',
  scopes: read,
  sdk: { namespace: ['appointmentTypes'], method: 'list' },
  query: z.strictObject(listQueryShape),
  response: { status: 200, description: 'A page of appointment types', schema: listResponse(V1AppointmentType) },
  paginated: true,
});

export const getAppointmentType = defineEndpoint({
  operationId: 'getAppointmentType',
  surface: 'v1',
  method: 'get',
  path: '/appointment-types/{appointmentTypeId}',
  summary: 'Get an appointment type',
  scopes: read,
  sdk: { namespace: ['appointmentTypes'], method: 'get' },
  params: idParams('appointmentTypeId'),
  response: { status: 200, description: 'The appointment type', schema: dataResponse(V1AppointmentType) },
  resourceName: 'Appointment type',
  errors: [404],
});

export const createAppointmentType = defineEndpoint({
  operationId: 'createAppointmentType',
  surface: 'v1',
  method: 'post',
  path: '/appointment-types',
  summary: 'Create an appointment type',
  scopes: write,
  sdk: { namespace: ['appointmentTypes'], method: 'create' },
  references: ['eventTypeId'],
  body: V1AppointmentTypeCreate,
  response: { status: 201, description: 'The appointment type', schema: dataResponse(V1AppointmentType) },
});

export const updateAppointmentType = defineEndpoint({
  operationId: 'updateAppointmentType',
  surface: 'v1',
  method: 'patch',
  path: '/appointment-types/{appointmentTypeId}',
  summary: 'Update an appointment type',
  scopes: write,
  sdk: { namespace: ['appointmentTypes'], method: 'update' },
  params: idParams('appointmentTypeId'),
  references: ['eventTypeId'],
  body: V1AppointmentTypeUpdate,
  response: { status: 200, description: 'The appointment type', schema: dataResponse(V1AppointmentType) },
  resourceName: 'Appointment type',
  errors: [404],
});
