import { BadRequestError, ConflictError, PermissionDeniedError, RateLimitError, VsfClient } from '@vsf/sdk';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockApi } from '../src/index.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function mock(keys: Parameters<typeof createMockApi>[0]['keys']) {
  const api = createMockApi({ keys });
  server.use(...api.handlers);
  const client = (name: string) => new VsfClient({ apiKey: api.keys[name], logLevel: 'off' });
  return { api, client };
}

describe('createMockApi', () => {
  it('creates then lists, newest first, and reads back what it stored', async () => {
    const { client } = mock({ test: ['read:cars', 'write:cars'] });
    const cars = client('test').cars;
    const first = await cars.create({ year: 1967, make: 'Ford', model: 'Mustang' });
    const second = await cars.create({ year: 1972, make: 'BMW', model: '2002' });
    expect(first.isForSale).toBe(false);
    expect(first.vin).toBeNull();
    const page = await cars.list();
    expect(page.data.map((c) => c.id)).toEqual([second.id, first.id]);
    expect(page.total).toBe(2);
    expect(await cars.get(first.id)).toEqual(first);
  });

  it('answers a missing scope with the server’s 403', async () => {
    const { client } = mock({ reader: ['read:cars'] });
    const error = await client('reader')
      .cars.create({ year: 1967, make: 'Ford', model: 'Mustang' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((error as PermissionDeniedError).message).toContain('Missing scope: write:cars');
  });

  it('answers a bad body with the validation details', async () => {
    const { client } = mock({ test: ['read:cars', 'write:cars'] });
    const error = (await client('test')
      .cars.create({ year: 1800, make: '', model: 'T' })
      .catch((e: unknown) => e)) as BadRequestError;
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'validation_error' });
    expect((error.details as { path: string }[]).map((d) => d.path)).toEqual(['year', 'make']);
  });

  it('pages through 250 seeded records', async () => {
    const { api, client } = mock({ test: ['read:customers'] });
    api.seed(
      'customers',
      Array.from({ length: 250 }, (_, i) => ({ firstName: `C${i}`, lastName: 'Seeded' })),
    );
    const first = await client('test').customers.list({ limit: 200 });
    expect(first).toMatchObject({ page: 1, limit: 200, total: 250 });
    const seen = [];
    for await (const customer of client('test').customers.listAll({ limit: 100 })) seen.push(customer.id);
    expect(new Set(seen).size).toBe(250);
  });

  it('retries a 503 and succeeds; a forced 429 carries Retry-After', async () => {
    const { api, client } = mock({ test: ['read:cars'] });
    api.failNext(1, { status: 503 });
    expect((await client('test').cars.list()).total).toBe(0);
    expect(api.requests().map((r) => r.status)).toEqual([503, 200]);
    api.failNext(3, { status: 429, retryAfter: 0 });
    const refused = await client('test')
      .cars.list()
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitError);
    expect((refused as RateLimitError).headers?.get('retry-after')).toBe('0');
  });

  it('parks one car per spot', async () => {
    const { client } = mock({ staff: ['read:cars', 'write:cars', 'read:parking', 'write:parking'] });
    const api = client('staff');
    const zone = await api.parking.zones.create({ name: 'Hall A' });
    const spot = await api.parking.spots.create({ name: 'A-1', parkingZoneId: zone.id });
    const one = await api.cars.create({ year: 1990, make: 'Mazda', model: 'Miata' });
    const two = await api.cars.create({ year: 1991, make: 'Mazda', model: 'Miata' });
    const event = await api.cars.events.create(one.id, { activityType: 'drop_off', parkingSpotId: spot.id });
    expect((await api.cars.get(one.id)).parkingSpot).toBe('A-1');
    const taken = await api.cars.events
      .create(two.id, { activityType: 'drop_off', parkingSpotId: spot.id })
      .catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(ConflictError);
    expect((taken as ConflictError).details).toEqual({ carId: one.id });
    expect(event.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });
});
