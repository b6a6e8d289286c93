import { describe, expect, it } from 'vitest';
import { V1CarCreate, V1CarUpdate } from './car.js';
import { ListQuery } from './common.js';
import { V1ContactCreate } from './contact.js';
import { V1CustomerCreate, V1CustomerUpdate } from './customer.js';

const car = { year: 1967, make: 'Ford', model: 'Mustang' };
const prefs = {
  invoices: true,
  estimates: true,
  scheduling: false,
  carUpdates: true,
  contracts: false,
  socialEvents: false,
  marketing: true,
};

describe('car bodies', () => {
  it.each([1886, 2100])('accept year %i (inclusive bounds)', (year) => {
    expect(V1CarCreate.safeParse({ ...car, year }).success).toBe(true);
  });
  it.each([1885, 2101, 1999.5])('reject year %s', (year) => {
    expect(V1CarCreate.safeParse({ ...car, year }).success).toBe(false);
  });
  it('require year, make and model on create but nothing on update', () => {
    expect(V1CarCreate.safeParse({ make: 'Ford', model: 'T' }).success).toBe(false);
    expect(V1CarCreate.safeParse({ ...car, make: '' }).success).toBe(false);
    expect(V1CarUpdate.safeParse({}).success).toBe(true);
    expect(V1CarUpdate.safeParse({ model: '' }).success).toBe(false);
  });
  it('reject unknown fields, bad enums and bad uuids', () => {
    expect(V1CarCreate.safeParse({ ...car, colour: 'red' }).success).toBe(false);
    expect(V1CarCreate.safeParse({ ...car, mileageUnits: 'miles' }).success).toBe(false);
    expect(V1CarCreate.safeParse({ ...car, customerId: 'abc' }).success).toBe(false);
    expect(V1CarCreate.safeParse({ ...car, customerId: null, mileageUnits: 'km' }).success).toBe(true);
  });
});

describe('customer and contact bodies', () => {
  it('validate email format and name lengths', () => {
    expect(V1CustomerCreate.safeParse({ firstName: 'A', lastName: 'B', email: 'nope' }).success).toBe(false);
    expect(V1CustomerCreate.safeParse({ firstName: '', lastName: 'B' }).success).toBe(false);
    expect(V1CustomerUpdate.safeParse({ firstName: '' }).success).toBe(false);
    expect(V1CustomerUpdate.safeParse({ restore: true }).success).toBe(true);
    expect(V1CustomerUpdate.safeParse({ restore: true, deletedAt: '2026-01-01T00:00:00Z' }).success).toBe(false);
  });
  it('require all seven communication preference booleans', () => {
    const base = { customerId: '0b6f4c3e-8a8f-4d0e-9a57-2f1c5d7e9b10', firstName: 'A', lastName: 'B' };
    expect(V1ContactCreate.safeParse({ ...base, communicationPreferences: prefs }).success).toBe(true);
    const { marketing: _m, ...six } = prefs;
    expect(V1ContactCreate.safeParse({ ...base, communicationPreferences: six }).success).toBe(false);
    expect(V1ContactCreate.safeParse({ ...base, role: 'uncle' }).success).toBe(false);
  });
});

describe('list query', () => {
  it('coerces and defaults page and limit', () => {
    expect(ListQuery.parse({})).toEqual({ page: 1, limit: 50 });
    expect(ListQuery.parse({ page: '3', limit: '200' })).toMatchObject({ page: 3, limit: 200 });
  });
  it.each([
    { page: '0' },
    { limit: '0' },
    { limit: '201' },
    { page: 'x' },
    { limit: '1.5' },
    { page: '0x10' },
    { page: '' },
  ])('rejects %o', (q) => {
    expect(ListQuery.safeParse(q).success).toBe(false);
  });
  it('requires a timezone offset on updatedAfter', () => {
    expect(ListQuery.safeParse({ updatedAfter: '2026-01-01T00:00:00' }).success).toBe(false);
    expect(ListQuery.parse({ updatedAfter: '2026-01-01T01:00:00+01:00' }).updatedAfter?.toISOString()).toBe(
      '2026-01-01T00:00:00.000Z',
    );
  });
  it('splits ids and caps them at 200', () => {
    const id = '0b6f4c3e-8a8f-4d0e-9a57-2f1c5d7e9b10';
    expect(ListQuery.parse({ ids: `${id},${id}` }).ids).toEqual([id, id]);
    expect(ListQuery.safeParse({ ids: Array(201).fill(id).join(',') }).success).toBe(false);
    expect(ListQuery.safeParse({ ids: 'nope' }).success).toBe(false);
  });
});
