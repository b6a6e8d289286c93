import { randomUUID } from 'node:crypto';
import type { createAppointment, EndpointBody, updateAppointment, V1Appointment } from '@vsf/contract';
import { type ValidationDetail, validationFailed } from '../../errors/api-http-error.js';
import {
  appointmentsTable,
  appointmentTypesTable,
  type EventTypeRow,
  eventTypesTable,
} from '../../repositories/tables.js';
import type { Executor } from '../../repositories/team-scoped-table.js';
import type { ServiceDeps } from '../service-deps.js';
import { compareTime } from '../standard/list-filters.js';
import { checkBodyReferences } from '../standard/resource-routes.js';
import { TeamResource } from '../standard/team-resource.js';

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

/** Appointments: an event type (or an appointment type naming one) decides what the appointment needs. */
export class Appointments extends TeamResource<V1Appointment> {
  constructor(deps: ServiceDeps) {
    super(deps, 'appointments', {
      // Those overlapping [from, to).
      filters: { from: compareTime('endAt', '>'), to: compareTime('startAt', '<') },
    });
  }

  override async create(teamId: string, payload: unknown): Promise<V1Appointment> {
    const body = payload as EndpointBody<typeof createAppointment>;
    const db = this.deps.db;
    const { type, appointmentTypeId } = await this.resolveType(db, teamId, body);
    await checkBodyReferences(db, teamId, this.routes.endpoints.create, body);
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

  override async update(teamId: string, appointmentId: unknown, payload: unknown): Promise<V1Appointment> {
    const body = payload as EndpointBody<typeof updateAppointment>;
    const id = appointmentId as string;
    const db = this.deps.db;
    const current = await this.get(teamId, id);
    await checkBodyReferences(db, teamId, this.routes.endpoints.update, body);
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
