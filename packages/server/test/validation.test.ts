import { CommunicationPreferences } from '@vsf/contract';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../src/testing/index.js';
import { type ApiCaller, isApiError } from './support/api-caller.js';
import { teamServer } from './support/team-server.js';
import { snapshotTeamData } from './support/team-snapshot.js';

let server: TestServer;
let api: ApiCaller;
let teamId: string;
let customerId: string;
let carId: string;
let contactId: string;

const car = { year: 1967, make: 'Ford', model: 'Mustang' };
/** Every preference on: a valid `communicationPreferences`, whatever preferences the contract declares. */
const prefs = Object.fromEntries(Object.keys(CommunicationPreferences.shape).map((name) => [name, true]));

teamServer(async (team) => {
  ({ server, api, teamId } = team);
  customerId = (await api('POST', '/customers', { body: { firstName: 'A', lastName: 'B' } })).body.data.id;
  carId = (await api('POST', '/cars', { body: car })).body.data.id;
  contactId = (await api('POST', '/contacts', { body: { customerId, firstName: 'C', lastName: 'D' } })).body.data.id;
});

// [description, method, path (ids filled lazily), body, expected failing path]
const cases: [string, string, () => string, () => unknown, string][] = [
  ['car year below 1886', 'POST', () => '/cars', () => ({ ...car, year: 1885 }), 'year'],
  ['car year above 2100', 'POST', () => '/cars', () => ({ ...car, year: 2101 }), 'year'],
  ['car year not an integer', 'POST', () => '/cars', () => ({ ...car, year: 1999.5 }), 'year'],
  ['car year as a string', 'POST', () => '/cars', () => ({ ...car, year: '1999' }), 'year'],
  ['car without make', 'POST', () => '/cars', () => ({ year: 1999, model: 'X' }), 'make'],
  ['car with empty model', 'POST', () => '/cars', () => ({ ...car, model: '' }), 'model'],
  ['car mileageUnits outside mi/km', 'POST', () => '/cars', () => ({ ...car, mileageUnits: 'miles' }), 'mileageUnits'],
  ['car customerId not a uuid', 'POST', () => '/cars', () => ({ ...car, customerId: '42' }), 'customerId'],
  ['car isForSale not a boolean', 'POST', () => '/cars', () => ({ ...car, isForSale: 'yes' }), 'isForSale'],
  ['car unknown field', 'POST', () => '/cars', () => ({ ...car, colour: 'red' }), ''],
  ['car update year 2101', 'PATCH', () => `/cars/${carId}`, () => ({ year: 2101 }), 'year'],
  ['car update empty make', 'PATCH', () => `/cars/${carId}`, () => ({ make: '' }), 'make'],
  ['car update unknown field', 'PATCH', () => `/cars/${carId}`, () => ({ owner: 'x' }), ''],
  ['car body that is an array', 'POST', () => '/cars', () => [car], ''],
  ['customer without lastName', 'POST', () => '/customers', () => ({ firstName: 'A' }), 'lastName'],
  ['customer empty firstName', 'POST', () => '/customers', () => ({ firstName: '', lastName: 'B' }), 'firstName'],
  [
    'customer bad email',
    'POST',
    () => '/customers',
    () => ({ firstName: 'A', lastName: 'B', email: 'not-an-email' }),
    'email',
  ],
  [
    'customer locationId not a uuid',
    'POST',
    () => '/customers',
    () => ({ firstName: 'A', lastName: 'B', locationId: 'x' }),
    'locationId',
  ],
  ['customer update empty lastName', 'PATCH', () => `/customers/${customerId}`, () => ({ lastName: '' }), 'lastName'],
  ['customer restore not a boolean', 'PATCH', () => `/customers/${customerId}`, () => ({ restore: 'yes' }), 'restore'],
  [
    'customer deletedAt without offset',
    'PATCH',
    () => `/customers/${customerId}`,
    () => ({ deletedAt: '2026-01-01T00:00:00' }),
    'deletedAt',
  ],
  ['contact without customerId', 'POST', () => '/contacts', () => ({ firstName: 'A', lastName: 'B' }), 'customerId'],
  [
    'contact bad role',
    'POST',
    () => '/contacts',
    () => ({ customerId, firstName: 'A', lastName: 'B', role: 'uncle' }),
    'role',
  ],
  [
    'contact bad email',
    'POST',
    () => '/contacts',
    () => ({ customerId, firstName: 'A', lastName: 'B', email: 'x@' }),
    'email',
  ],
  [
    'contact preferences missing marketing',
    'POST',
    () => '/contacts',
    () => {
      const { marketing: _m, ...six } = prefs;
      return { customerId, firstName: 'A', lastName: 'B', communicationPreferences: six };
    },
    'communicationPreferences.marketing',
  ],
  [
    'contact preference not a boolean',
    'POST',
    () => '/contacts',
    () => ({ customerId, firstName: 'A', lastName: 'B', communicationPreferences: { ...prefs, invoices: 'yes' } }),
    'communicationPreferences.invoices',
  ],
  [
    'contact preferences with an extra flag',
    'PATCH',
    () => `/contacts/${contactId}`,
    () => ({ communicationPreferences: { ...prefs, newsletters: true } }),
    'communicationPreferences',
  ],
  ['contact update customerId (not updatable)', 'PATCH', () => `/contacts/${contactId}`, () => ({ customerId }), ''],
  ['location without name', 'POST', () => '/locations', () => ({ city: 'Austin' }), 'name'],
  ['location sortOrder not an integer', 'POST', () => '/locations', () => ({ name: 'A', sortOrder: 1.5 }), 'sortOrder'],
];

describe('validation', () => {
  it.each(cases)('%s → 400 validation_error, nothing stored', async (_label, method, path, body, failingPath) => {
    const before = await snapshotTeamData(server.db, teamId);
    const res = await api(method, path(), { body: body() });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'Validation failed', code: 'validation_error' });
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(failingPath);
    for (const d of res.body.details) expect(d.message).toBeTypeOf('string');
    expect(await snapshotTeamData(server.db, teamId)).toEqual(before);
  });

  it('reports every problem of a body at once', async () => {
    const res = await api('POST', '/cars', { body: { year: 1800, make: '', extra: 1 } });
    expect(res.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['', 'make', 'model', 'year']);
  });

  it('answers malformed JSON with 400 invalid_json and stores nothing', async () => {
    const before = await snapshotTeamData(server.db, teamId);
    const res = await api('POST', '/cars', { rawBody: '{"year": 1999, "make": ' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Malformed JSON body', code: 'invalid_json', details: null });
    expect(await snapshotTeamData(server.db, teamId)).toEqual(before);
  });

  it('answers a body that is not JSON with 415 saying what to send, and stores nothing', async () => {
    const before = await snapshotTeamData(server.db, teamId);
    const res = await api('POST', '/cars', {
      rawBody: 'year=1999',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({
      error: 'Send the body as JSON (Content-Type: application/json); got "application/x-www-form-urlencoded"',
      code: 'unsupported_media_type',
      details: null,
    });
    expect(await snapshotTeamData(server.db, teamId)).toEqual(before);
  });

  it('answers a body over 5 MB with 413 payload_too_large', async () => {
    const res = await api('POST', '/cars', { body: { ...car, trim: 'x'.repeat(5 * 1024 * 1024 + 10) } });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'payload_too_large' });
  });

  it('answers a malformed id in the path as not found', async () => {
    const res = await api('GET', '/cars/not-a-uuid');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Car not found', code: 'not_found', details: null });
  });

  it('answers unknown routes with an ApiError 404', async () => {
    const res = await api('GET', '/no-such-thing');
    expect(res.status).toBe(404);
    expect(isApiError(res.body)).toBe(true);
  });

  it('accepts the boundary years and nulls for nullable fields', async () => {
    for (const year of [1886, 2100]) {
      const res = await api('POST', '/cars', { body: { ...car, year, vin: null, mileage: null, customerId: null } });
      expect(res.status).toBe(201);
    }
  });
});
