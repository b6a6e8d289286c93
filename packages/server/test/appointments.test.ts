import { describe, expect, it } from 'vitest';
import type { TestServer } from '../src/testing/index.js';
import type { ApiCaller } from './support/api-caller.js';
import { TINY_PNG } from './support/endpoint-fixtures.js';
import { teamServer } from './support/team-server.js';
import { snapshotTeamData } from './support/team-snapshot.js';

let server: TestServer;
let api: ApiCaller;
let teamId: string;
let carId: string;
let customerId: string;
const slot = { startAt: '2030-03-01T09:00:00+01:00', endAt: '2030-03-01T10:30:00+01:00' };

teamServer(async (team) => {
  ({ server, api, teamId } = team);
  customerId = (await api('POST', '/customers', { body: { firstName: 'Ada', lastName: 'L' } })).body.data.id;
  carId = (await api('POST', '/cars', { body: { year: 1967, make: 'Ford', model: 'Mustang', customerId } })).body.data
    .id;
});

describe('appointments', () => {
  it('schedules a vehicle event with its own session and never moves the car', async () => {
    const before = (await api('GET', `/cars/${carId}`)).body.data;
    const res = await api('POST', '/appointments', {
      body: { eventType: 'pick_up', carId, ...slot, notes: 'owner collects' },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      eventType: 'pick_up',
      carId,
      status: 'scheduled',
      startAt: '2030-03-01T08:00:00.000Z',
      endAt: '2030-03-01T09:30:00.000Z',
    });
    expect(res.body.data.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await api('GET', `/cars/${carId}`)).body.data).toEqual(before);
  });

  it.each([
    [{ eventType: 'pick_up', ...slot }, 'carId'],
    [{ eventType: 'customer_consultation', ...slot }, 'customerId'],
    [{ eventType: 'pick_up', startAt: slot.endAt, endAt: slot.startAt }, 'endAt'],
    [{ eventType: 'pick_up', startAt: '2030-03-01T09:00:00', endAt: slot.endAt }, 'startAt'],
    [{ ...slot }, 'eventType'],
    [{ eventType: 'teleport', ...slot }, 'eventType'],
  ])('rejects %o with 400 and stores nothing', async (body, path) => {
    const snapshot = await snapshotTeamData(server.db, teamId);
    const res = await api('POST', '/appointments', { body });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(await snapshotTeamData(server.db, teamId)).toEqual(snapshot);
  });

  it('needs nothing for a facility event, and refuses an event type together with an appointment type', async () => {
    expect((await api('POST', '/appointments', { body: { eventType: 'facility_walkthrough', ...slot } })).status).toBe(
      201,
    );
    const types = (await api('GET', '/event-types', { query: { scope: 'customer' } })).body.data;
    const appointmentType = (
      await api('POST', '/appointment-types', {
        body: { name: 'Consult', eventTypeId: types[0].id, durationMinutes: 45 },
      })
    ).body.data;
    const both = await api('POST', '/appointments', {
      body: { eventType: 'pick_up', appointmentTypeId: appointmentType.id, carId, ...slot },
    });
    expect(both.status).toBe(400);
    const viaType = await api('POST', '/appointments', {
      body: { appointmentTypeId: appointmentType.id, customerId, ...slot },
    });
    expect(viaType.status).toBe(201);
    expect(viaType.body.data).toMatchObject({ appointmentTypeId: appointmentType.id, eventType: types[0].value });
  });

  it('lists by car and window, reschedules, and cancels once', async () => {
    const a = (
      await api('POST', '/appointments', {
        body: { eventType: 'inspection', carId, startAt: '2031-01-01T10:00:00Z', endAt: '2031-01-01T11:00:00Z' },
      })
    ).body.data;
    const window = await api('GET', '/appointments', {
      query: { carId, from: '2031-01-01T00:00:00Z', to: '2031-01-02T00:00:00Z' },
    });
    expect(window.body.data.map((x: { id: string }) => x.id)).toEqual([a.id]);
    const bad = await api('PATCH', `/appointments/${a.id}`, { body: { endAt: '2031-01-01T09:00:00Z' } });
    expect(bad.status).toBe(400);
    const unlinked = await api('PATCH', `/appointments/${a.id}`, { body: { carId: null } });
    expect(unlinked.status).toBe(400);
    const moved = await api('PATCH', `/appointments/${a.id}`, {
      body: { startAt: '2031-01-02T10:00:00Z', endAt: '2031-01-02T12:00:00Z' },
    });
    expect(moved.body.data.startAt).toBe('2031-01-02T10:00:00.000Z');
    const cancelled = await api('POST', `/appointments/${a.id}/cancel`);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled' });
    const again = await api('POST', `/appointments/${a.id}/cancel`);
    expect(again.body.data.cancelledAt).toBe(cancelled.body.data.cancelledAt);
  });
});

describe('an appointment’s session', () => {
  const photo = (car: string, sessionId: string) =>
    api('POST', `/cars/${car}/photos`, {
      body: { sessionId, filename: 'front.png', contentType: 'image/png', base64: TINY_PNG },
    });

  it('takes photos of the appointment’s car like a car event’s session', async () => {
    const appointment = (await api('POST', '/appointments', { body: { eventType: 'pick_up', carId, ...slot } })).body
      .data;
    const res = await photo(carId, appointment.sessionId);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ carId, sessionId: appointment.sessionId });
    const gallery = await api('GET', `/cars/${carId}/photos`, { query: { sessionId: appointment.sessionId } });
    expect(gallery.body.data.map((p: { id: string }) => p.id)).toEqual([res.body.data.id]);
  });

  it('takes them once the appointment has a car, and only for that car', async () => {
    const appointment = (await api('POST', '/appointments', { body: { eventType: 'facility_walkthrough', ...slot } }))
      .body.data;
    const before = await snapshotTeamData(server.db, teamId);
    const early = await photo(carId, appointment.sessionId);
    expect(early.status).toBe(400);
    expect(early.body.details).toEqual([{ path: 'sessionId', message: expect.stringMatching(/appointment/) }]);
    expect(await snapshotTeamData(server.db, teamId)).toEqual(before);

    await api('PATCH', `/appointments/${appointment.id}`, { body: { carId } });
    expect((await photo(carId, appointment.sessionId)).status).toBe(201);
    const other = (await api('POST', '/cars', { body: { year: 1970, make: 'Other', model: 'Car' } })).body.data;
    expect((await photo(other.id, appointment.sessionId)).status).toBe(400);
  });
});
