import { randomUUID } from 'node:crypto';
import type {
  createAppointment,
  createAppointmentType,
  EndpointBody,
  EndpointQuery,
  listAppointments,
  listAppointmentTypes,
  updateAppointment,
  updateAppointmentType,
  V1Appointment,
  V1AppointmentType,
} from '@vsf/contract';
import { notFound, type ValidationDetail, validationFailed } from '../errors/api-http-error.js';
import { appointmentsTable, appointmentTypesTable } from '../repositories/facility-tables.js';
import { carsTable, customersTable, type EventTypeRow, eventTypesTable } from '../repositories/tables.js';
import type { Executor, ListResult } from '../repositories/team-scoped-table.js';
import { checkReferences } from './check-references.js';
import type { ServiceDeps } from './service-deps.js';

/** What each event-type scope requires of an appointment. */
function scopeProblems(
  type: EventTypeRow,
  a: { carId?: string | null | undefined; customerId?: string | null | undefined },
): ValidationDetail[] {
  if (type.scope === 'vehicle' && !a.carId)
    return [{ path: 'carId', message: `A ${type.value} appointment needs a carId (vehicle scope)` }];
  if (type.scope === 'customer' && !a.customerId) {
    return [{ path: 'customerId', message: `A ${type.value} appointment needs a customerId (customer scope)` }];
  }
  return [];
}

export class AppointmentsService {
  constructor(private readonly deps: ServiceDeps) {}

  list(teamId: string, query: EndpointQuery<typeof listAppointments>): Promise<ListResult<V1Appointment>> {
    return appointmentsTable.list(this.deps.db, teamId, query, (q) => {
      if (query.carId) q.where('appointments.car_id', query.carId);
      if (query.customerId) q.where('appointments.customer_id', query.customerId);
      if (query.from) q.where('appointments.end_at', '>', new Date(query.from));
      if (query.to) q.where('appointments.start_at', '<', new Date(query.to));
    });
  }

  async get(teamId: string, id: string): Promise<V1Appointment> {
    const appointment = await appointmentsTable.findById(this.deps.db, teamId, id);
    if (!appointment) throw notFound('Appointment');
    return appointment;
  }

  async create(teamId: string, body: EndpointBody<typeof createAppointment>): Promise<V1Appointment> {
    const db = this.deps.db;
    const { type, appointmentTypeId } = await this.resolveType(db, teamId, body);
    await checkReferences(db, teamId, [
      { path: 'carId', id: body.carId, table: carsTable, resource: 'Car' },
      { path: 'customerId', id: body.customerId, table: customersTable, resource: 'Customer' },
    ]);
    const problems = scopeProblems(type, body);
    if (problems.length > 0) throw validationFailed(problems);
    return appointmentsTable.insert(
      db,
      teamId,
      {
        id: randomUUID(),
        eventTypeId: type.id,
        eventType: type.value,
        appointmentTypeId,
        carId: body.carId ?? null,
        customerId: body.customerId ?? null,
        startAt: new Date(body.startAt).toISOString(),
        endAt: new Date(body.endAt).toISOString(),
        status: 'scheduled',
        notes: body.notes ?? null,
        sessionId: randomUUID(),
        cancelledAt: null,
      },
      this.deps.now(),
    );
  }

  async update(teamId: string, id: string, body: EndpointBody<typeof updateAppointment>): Promise<V1Appointment> {
    const db = this.deps.db;
    const current = await this.get(teamId, id);
    await checkReferences(db, teamId, [
      { path: 'carId', id: body.carId, table: carsTable, resource: 'Car' },
      { path: 'customerId', id: body.customerId, table: customersTable, resource: 'Customer' },
    ]);
    const next = { ...current, ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) };
    if (Date.parse(next.endAt) <= Date.parse(next.startAt))
      throw validationFailed([{ path: 'endAt', message: 'endAt must be after startAt' }]);
    const type = (await eventTypesTable.findById(db, teamId, current.eventTypeId)) as EventTypeRow;
    const problems = scopeProblems(type, next);
    if (problems.length > 0) throw validationFailed(problems);
    const changes = {
      ...body,
      ...(body.startAt ? { startAt: new Date(body.startAt).toISOString() } : {}),
      ...(body.endAt ? { endAt: new Date(body.endAt).toISOString() } : {}),
    };
    return (await appointmentsTable.update(db, teamId, id, changes, this.deps.now())) as V1Appointment;
  }

  async cancel(teamId: string, id: string): Promise<V1Appointment> {
    const current = await this.get(teamId, id);
    if (current.status === 'cancelled') return current;
    const now = this.deps.now();
    return (await appointmentsTable.update(
      this.deps.db,
      teamId,
      id,
      { status: 'cancelled', cancelledAt: now.toISOString() },
      now,
    )) as V1Appointment;
  }

  listTypes(teamId: string, query: EndpointQuery<typeof listAppointmentTypes>): Promise<ListResult<V1AppointmentType>> {
    return appointmentTypesTable.list(this.deps.db, teamId, query);
  }

  async getType(teamId: string, id: string): Promise<V1AppointmentType> {
    const type = await appointmentTypesTable.findById(this.deps.db, teamId, id);
    if (!type) throw notFound('Appointment type');
    return type;
  }

  async createType(teamId: string, body: EndpointBody<typeof createAppointmentType>): Promise<V1AppointmentType> {
    await checkReferences(this.deps.db, teamId, [
      { path: 'eventTypeId', id: body.eventTypeId, table: eventTypesTable, resource: 'Event type' },
    ]);
    return appointmentTypesTable.insert(
      this.deps.db,
      teamId,
      { isActive: true, ...body, id: randomUUID() },
      this.deps.now(),
    );
  }

  async updateType(
    teamId: string,
    id: string,
    body: EndpointBody<typeof updateAppointmentType>,
  ): Promise<V1AppointmentType> {
    if (!(await appointmentTypesTable.exists(this.deps.db, teamId, id))) throw notFound('Appointment type');
    await checkReferences(this.deps.db, teamId, [
      { path: 'eventTypeId', id: body.eventTypeId, table: eventTypesTable, resource: 'Event type' },
    ]);
    return (await appointmentTypesTable.update(this.deps.db, teamId, id, body, this.deps.now())) as V1AppointmentType;
  }

  private async resolveType(db: Executor, teamId: string, body: EndpointBody<typeof createAppointment>) {
    if (body.appointmentTypeId) {
      const appointmentType = await appointmentTypesTable.findById(db, teamId, body.appointmentTypeId);
      if (!appointmentType)
        throw validationFailed([{ path: 'appointmentTypeId', message: 'Appointment type not found' }]);
      const type = (await eventTypesTable.findById(db, teamId, appointmentType.eventTypeId)) as EventTypeRow;
      return { type, appointmentTypeId: appointmentType.id };
    }
    const type = body.eventTypeId
      ? await eventTypesTable.findById(db, teamId, body.eventTypeId)
      : await eventTypesTable
          .scoped(db, teamId)
          .where('event_types.value', body.eventType)
          .first()
          .then((row) => (row ? eventTypesTable.toRecord(row) : undefined));
    if (!type) {
      const path = body.eventTypeId ? 'eventTypeId' : 'eventType';
      throw validationFailed([{ path, message: 'Event type not found; see GET /event-types' }]);
    }
    return { type, appointmentTypeId: null };
  }
}
