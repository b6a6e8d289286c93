import { VsfClient } from '@vsf/sdk';
import { createMockApi } from '@vsf/testing';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { carsForSale, RegistrationRefused, registerCar } from './inventory.js';

// The integration's unit tests: @vsf/testing answers as the API does, with no server or database running.
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function setup() {
  const api = createMockApi({ keys: { backOffice: ['read:cars', 'write:cars'], website: ['read:cars'] } });
  server.use(...api.handlers);
  const client = (key: keyof typeof api.keys) => new VsfClient({ apiKey: api.keys[key], logLevel: 'off' });
  return { api, backOffice: client('backOffice'), website: client('website') };
}

it('lists a car for sale once it is registered', async () => {
  const { backOffice, website } = setup();
  const car = await registerCar(backOffice, {
    year: 1967,
    make: 'Ford',
    model: 'Mustang',
    askingPriceCents: 4_500_000,
  });
  await registerCar(backOffice, { year: 1990, make: 'Mazda', model: 'Miata' });
  expect(await carsForSale(website)).toEqual([{ id: car.id, title: '1967 Ford Mustang' }]);
});

it('says so when its key may not register cars (403)', async () => {
  const { website } = setup();
  const refused = await registerCar(website, { year: 1967, make: 'Ford', model: 'Mustang' }).catch((e) => e);
  expect(refused).toBeInstanceOf(RegistrationRefused);
  expect(refused.message).toBe("This integration's API key cannot register cars (Missing scope: write:cars)");
});

it("names the fields the API refused (a 400's details)", async () => {
  const { backOffice } = setup();
  const refused = await registerCar(backOffice, { year: 1700, make: '', model: 'T' }).catch((e) => e);
  expect(refused).toBeInstanceOf(RegistrationRefused);
  expect(Object.keys(refused.fields)).toEqual(['year', 'make']);
});

it('pages through 250 cars', async () => {
  const { api, website } = setup();
  api.seed(
    'cars',
    Array.from({ length: 250 }, (_, i) => ({ year: 2000, make: 'Seeded', model: `M${i}`, isForSale: i % 2 === 0 })),
  );
  expect(await carsForSale(website)).toHaveLength(125);
  expect(api.requests().filter((r) => r.operationId === 'listCars')).toHaveLength(2);
});

it('gets through a 503 by retrying', async () => {
  const { api, backOffice } = setup();
  api.failNext(1, { status: 503 });
  const car = await registerCar(backOffice, { year: 1972, make: 'BMW', model: '2002' });
  const attempts = api.requests().filter((r) => r.operationId === 'createCar');
  expect(attempts.map((r) => r.status)).toEqual([503, 201]);
  // The SDK retried with the same Idempotency-Key, so a retry can never register the car twice.
  expect(attempts[0]?.headers['idempotency-key']).toBe(attempts[1]?.headers['idempotency-key']);
  expect(api.records('cars').map((c) => c.id)).toEqual([car.id]);
});
