import { ALL_SCOPES, deleteLocation, deleteParkingZone, V1Car, V1Contact, V1Customer, V1Location } from '@vsf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/index.js';
import { type ApiCaller, apiCaller } from './support/api-caller.js';

let server: TestServer;
let api: ApiCaller;

beforeAll(async () => {
  server = await startTestServer();
  api = apiCaller(server.baseUrl, (await server.createTeamWithKey(ALL_SCOPES)).key);
});
afterAll(() => server?.close());

describe('cars', () => {
  it('create returns 201, a Location and the full record; get and update round-trip', async () => {
    const location = (await api('POST', '/locations', { body: { name: 'Main' } })).body.data;
    const res = await api('POST', '/cars', {
      body: {
        year: 1972,
        make: 'Porsche',
        model: '911',
        vin: 'WP0ZZZ91ZJS100001',
        mileage: 51000,
        mileageUnits: 'mi',
        locationId: location.id,
        declaredValueCents: 9_000_000_000,
      },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/api/v1/cars/${res.body.data.id}`);
    const created = V1Car.parse(res.body.data);
    expect(created).toMatchObject({
      isForSale: false,
      declaredValueCents: 9_000_000_000,
      parkingSpotId: null,
      trim: null,
    });
    expect(created.createdAt).toBe(created.updatedAt);
    const got = await api('GET', `/cars/${created.id}`);
    expect(got.body.data).toEqual(created);
    const updated = await api('PATCH', `/cars/${created.id}`, { body: { mileage: null, isForSale: true } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ mileage: null, isForSale: true, vin: 'WP0ZZZ91ZJS100001' });
  });

  it('filters by vin and stock number', async () => {
    await api('POST', '/cars', { body: { year: 2000, make: 'A', model: 'B', stockNumber: 'STK-77' } });
    const res = await api('GET', '/cars', { query: { stockNumber: 'STK-77' } });
    expect(res.body.total).toBe(1);
  });
});

describe('customers', () => {
  it('soft-delete hides from lists, stays readable, and restore brings it back', async () => {
    const c = V1Customer.parse(
      (
        await api('POST', '/customers', {
          body: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' },
        })
      ).body.data,
    );
    expect(c).toMatchObject({ isActive: true, deletedAt: null, email: 'grace@example.com' });
    const del = await api('DELETE', `/customers/${c.id}`);
    expect(del).toMatchObject({ status: 200, body: { data: { id: c.id, deleted: true } } });
    const got = (await api('GET', `/customers/${c.id}`)).body.data;
    expect(got.deletedAt).not.toBeNull();
    expect(got.updatedAt > (c.updatedAt as string)).toBe(true);
    const ids = { ids: c.id };
    expect((await api('GET', '/customers', { query: ids })).body.total).toBe(0);
    expect((await api('GET', '/customers', { query: { ...ids, includeDeleted: 'true' } })).body.total).toBe(1);

    const again = await api('DELETE', `/customers/${c.id}`);
    expect(again.status).toBe(200);
    expect((await api('GET', `/customers/${c.id}`)).body.data.deletedAt).toBe(got.deletedAt);

    const restored = await api('PATCH', `/customers/${c.id}`, { body: { restore: true } });
    expect(restored.body.data.deletedAt).toBeNull();
    expect((await api('GET', '/customers', { query: ids })).body.total).toBe(1);
  });

  it('with updatedAfter, lists include soft-deleted customers (deletedAt set) unless includeDeleted=false', async () => {
    const c = (await api('POST', '/customers', { body: { firstName: 'Gone', lastName: 'Later' } })).body.data;
    await api('DELETE', `/customers/${c.id}`);
    const query = { ids: c.id, updatedAfter: c.createdAt };
    const incremental = await api('GET', '/customers', { query });
    expect(incremental.body.total).toBe(1);
    expect(incremental.body.data[0]).toMatchObject({ id: c.id, deletedAt: expect.any(String) });
    expect((await api('GET', '/customers', { query: { ...query, includeDeleted: 'false' } })).body.total).toBe(0);
    expect((await api('GET', '/customers', { query: { ids: c.id } })).body.total).toBe(0);
  });

  it('PATCH deletedAt soft-deletes as of a time, and deletedAt null restores', async () => {
    const c = (await api('POST', '/customers', { body: { firstName: 'A', lastName: 'B' } })).body.data;
    const at = '2026-03-01T12:00:00+02:00';
    const res = await api('PATCH', `/customers/${c.id}`, { body: { deletedAt: at } });
    expect(res.body.data.deletedAt).toBe('2026-03-01T10:00:00.000Z');
    const back = await api('PATCH', `/customers/${c.id}`, { body: { deletedAt: null } });
    expect(back.body.data.deletedAt).toBeNull();
  });

  it('finds customers by email case-insensitively', async () => {
    await api('POST', '/customers', { body: { firstName: 'Case', lastName: 'Test', email: 'MiXeD@Example.com' } });
    const res = await api('GET', '/customers', { query: { email: 'mixed@example.com' } });
    expect(res.body.total).toBe(1);
  });
});

describe('contacts', () => {
  it('belong to a customer, default their role, filter by customer and delete for good', async () => {
    const customer = (await api('POST', '/customers', { body: { firstName: 'Owner', lastName: 'One' } })).body.data;
    const prefs = {
      invoices: true,
      estimates: false,
      scheduling: true,
      carUpdates: true,
      contracts: false,
      socialEvents: false,
      marketing: false,
    };
    const res = await api('POST', '/contacts', {
      body: { customerId: customer.id, firstName: 'Pat', lastName: 'Lee', communicationPreferences: prefs },
    });
    expect(res.status).toBe(201);
    const contact = V1Contact.parse(res.body.data);
    expect(contact).toMatchObject({
      role: 'other',
      isPrimary: false,
      canAccessPortal: false,
      communicationPreferences: prefs,
    });
    const updated = await api('PATCH', `/contacts/${contact.id}`, {
      body: { role: 'bookkeeper', communicationPreferences: null },
    });
    expect(updated.body.data).toMatchObject({ role: 'bookkeeper', communicationPreferences: null });
    expect((await api('GET', '/contacts', { query: { customerId: customer.id } })).body.total).toBe(1);
    expect((await api('DELETE', `/contacts/${contact.id}`)).body).toEqual({ data: { id: contact.id, deleted: true } });
    expect((await api('GET', `/contacts/${contact.id}`)).status).toBe(404);
  });
});

describe('locations', () => {
  it('CRUD, and deleting one in use is a 409 that deletes nothing', async () => {
    const loc = V1Location.parse(
      (await api('POST', '/locations', { body: { name: 'Depot', timezone: 'America/Chicago', sortOrder: 2 } })).body
        .data,
    );
    expect(loc).toMatchObject({ isActive: true, sortOrder: 2 });
    await api('POST', '/cars', { body: { year: 2000, make: 'A', model: 'B', locationId: loc.id } });
    const del = await api('DELETE', `/locations/${loc.id}`);
    expect(del.status).toBe(409);
    expect(del.body).toMatchObject({ code: 'conflict' });
    expect((await api('GET', `/locations/${loc.id}`)).status).toBe(200);
    const inactive = await api('GET', '/locations', { query: { isActive: 'false' } });
    expect(inactive.body.total).toBe(0);
    const unused = (await api('POST', '/locations', { body: { name: 'Spare' } })).body.data;
    expect((await api('DELETE', `/locations/${unused.id}`)).status).toBe(200);
    expect((await api('GET', `/locations/${unused.id}`)).status).toBe(404);
  });
});

describe('a delete of a record others refer to', () => {
  it('answers 409 with the message the contract declares (inUse), and changes nothing', async () => {
    const location = (await api('POST', '/locations', { body: { name: 'Referred to' } })).body.data;
    await api('POST', '/cars', { body: { year: 2001, make: 'A', model: 'B', locationId: location.id } });
    const refused = await api('DELETE', `/locations/${location.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: deleteLocation.inUse, code: 'conflict', details: null });
    expect((await api('GET', `/locations/${location.id}`)).body.data).toEqual(location);

    const zone = (await api('POST', '/parking-zones', { body: { name: 'Z-refused' } })).body.data;
    expect((await api('POST', '/parking-spots', { body: { name: 'S-1', parkingZoneId: zone.id } })).status).toBe(201);
    const zoneRefused = await api('DELETE', `/parking-zones/${zone.id}`);
    expect(zoneRefused.status).toBe(409);
    expect(zoneRefused.body.error).toBe(deleteParkingZone.inUse);
  });
});
