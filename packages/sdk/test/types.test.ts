import { apiEndpoints as contractEndpoints, type V1Car, type V1Customer } from '@vsf/contract';
import { describe, expectTypeOf, it } from 'vitest';
import type { APIPromise } from '../src/core/api-promise.js';
import type { Page, PagePromise } from '../src/core/page.js';
import { VsfClient } from '../src/generated/vsf-client.js';
import { apiEndpoints, type Route, type V1CarCreate } from '../src/index.js';

// Compile-time checks (vitest typechecks them through tsc in `pnpm typecheck`); the bodies never run requests.
describe('inferred types', () => {
  const client = new VsfClient({ apiKey: 'vsf_abcdefghijkl.x', baseUrl: 'http://unused.test', logLevel: 'off' });

  it('resolves single records and pages to the contract types', () => {
    expectTypeOf(client.cars.get).returns.resolves.toEqualTypeOf<V1Car>();
    expectTypeOf(client.customers.list).returns.resolves.toEqualTypeOf<Page<V1Customer>>();
    expectTypeOf(client.cars.listAll).returns.toEqualTypeOf<AsyncGenerator<V1Car>>();
  });

  it('rejects wrong bodies and ids at compile time', () => {
    const compileOnly = () => {
      // @ts-expect-error unknown field
      client.cars.create({ year: 2000, make: 'A', model: 'B', colour: 'red' });
      // @ts-expect-error year must be a number
      client.cars.create({ year: '2000', make: 'A', model: 'B' });
      // @ts-expect-error make is required
      client.cars.create({ year: 2000, model: 'B' });
      // @ts-expect-error ids are strings
      client.cars.get(42);
      // @ts-expect-error mileageUnits is mi or km
      client.cars.update('id', { mileageUnits: 'miles' });
      // @ts-expect-error role is an enum
      client.contacts.create({ customerId: 'c', firstName: 'A', lastName: 'B', role: 'uncle' });
      client.cars.list({ updatedAfter: new Date(), limit: 200, ids: ['a'] });
      client.cars.list({ updatedAfter: '2026-01-01T00:00:00Z' });
    };
    expectTypeOf(compileOnly).toBeFunction();
  });

  it('types client.request() by a contract declaration as by a generated route', () => {
    expectTypeOf(client.request(contractEndpoints.listCars, { query: { limit: 200 } })).toEqualTypeOf<
      PagePromise<V1Car>
    >();
    expectTypeOf(client.request(contractEndpoints.getCar, { params: { carId: 'c' } })).toEqualTypeOf<
      APIPromise<V1Car>
    >();
    const compileOnly = () => {
      // @ts-expect-error getCar needs its carId
      client.request(contractEndpoints.getCar);
      // @ts-expect-error a wrong body field
      client.request(contractEndpoints.createCar, { body: { year: 2000, make: 'A', model: 'B', wheels: 4 } });
    };
    expectTypeOf(compileOnly).toBeFunction();
  });

  it('exports routes as plain data and contract schemas as types only', () => {
    expectTypeOf(apiEndpoints.getCar).toExtend<Route>();
    expectTypeOf(apiEndpoints.listCars.paginated).toEqualTypeOf<true>();
    expectTypeOf(apiEndpoints.getCar.paginated).toEqualTypeOf<false>();
    expectTypeOf(apiEndpoints.getCar.path).toEqualTypeOf<'/cars/{carId}'>();
    expectTypeOf<V1CarCreate>().toHaveProperty('make');
    const compileOnly = async () => {
      // @ts-expect-error the route table carries no schema
      apiEndpoints.createCar.body;
      const sdk = await import('../src/index.js');
      // @ts-expect-error contract schemas are re-exported as types: the SDK's JavaScript has no zod schema
      sdk.V1CarCreate;
    };
    expectTypeOf(compileOnly).toBeFunction();
  });

  it('types client.request() by the endpoint declaration', () => {
    expectTypeOf(client.request(apiEndpoints.listCars, { query: { limit: 200 } })).toEqualTypeOf<PagePromise<V1Car>>();
    expectTypeOf(client.request(apiEndpoints.getCar, { params: { carId: 'c' } })).toEqualTypeOf<APIPromise<V1Car>>();
    expectTypeOf(client.request(apiEndpoints.listCustomers).withResponse()).resolves.toHaveProperty('response');
    const compileOnly = () => {
      // @ts-expect-error getCar needs its carId
      client.request(apiEndpoints.getCar);
      // @ts-expect-error the path parameter is carId
      client.request(apiEndpoints.getCar, { params: { id: 'c' } });
      // @ts-expect-error not a query parameter of listCars
      client.request(apiEndpoints.listCars, { query: { colour: 'red' } });
      // @ts-expect-error a wrong body field
      client.request(apiEndpoints.createCar, { body: { year: 2000, make: 'A', model: 'B', wheels: 4 } });
    };
    expectTypeOf(compileOnly).toBeFunction();
  });
});
