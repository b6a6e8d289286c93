import { describe, expectTypeOf, it } from 'vitest';
import type { APIPromise } from '../src/core/api-promise.js';
import type { Page, PagePromise } from '../src/core/page.js';
import { VsfClient } from '../src/generated/vsf-client.js';
import {
  type ApiErrorCode,
  apiEndpoints,
  type BadRequestError,
  type CarEvent,
  type NotAnImageError,
  type PhotoTooLargeError,
  type Route,
  type V1Car,
  type V1CarCreate,
  type V1CarCreateParams,
  type V1CarListParams,
  type V1Customer,
  type V1Event,
  type ValidationIssue,
  type VsfError,
} from '../src/index.js';

// Compile-time checks (vitest typechecks them through tsc in `pnpm typecheck`); the bodies never run requests.
describe('inferred types', () => {
  const client = new VsfClient({ apiKey: 'vsf_abcdefghijkl.x', baseUrl: 'http://unused.test', logLevel: 'off' });

  it('writes methods in named interfaces', () => {
    expectTypeOf(client.cars.get).returns.toEqualTypeOf<APIPromise<V1Car>>();
    expectTypeOf(client.cars.create).parameter(0).toEqualTypeOf<V1CarCreateParams>();
    expectTypeOf(client.cars.list).parameter(0).toEqualTypeOf<V1CarListParams | undefined>();
    expectTypeOf(client.customers.list).returns.resolves.toEqualTypeOf<Page<V1Customer>>();
    expectTypeOf(client.cars.listAll).returns.toEqualTypeOf<AsyncGenerator<V1Car>>();
    // The contract's name of a body stays, as the same type.
    expectTypeOf<V1CarCreate>().toEqualTypeOf<V1CarCreateParams>();
  });

  it('types every record field as the server sends it', () => {
    expectTypeOf<V1Car['teamId']>().toEqualTypeOf<string | null>();
    expectTypeOf<V1Customer['teamId']>().toEqualTypeOf<string | null>();
    expectTypeOf<V1Car['year']>().toEqualTypeOf<number>();
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

  it('narrows an event by its type to the record it carries', () => {
    const handle = (event: V1Event) => {
      if (event.type === 'car.updated') {
        expectTypeOf(event).toEqualTypeOf<CarEvent>();
        expectTypeOf(event.data).toEqualTypeOf<V1Car | null>();
      }
      if (event.resource === 'customer') expectTypeOf(event.data).toEqualTypeOf<V1Customer | null>();
      // @ts-expect-error no such event
      if (event.type === 'car.exploded') return;
    };
    expectTypeOf(handle).toBeFunction();
  });

  it('types error codes and a 400 details', () => {
    expectTypeOf<BadRequestError['details']>().toEqualTypeOf<ValidationIssue[]>();
    expectTypeOf<ApiErrorCode>().toExtend<NonNullable<VsfError['code']>>();
    expectTypeOf<'not_found'>().toExtend<ApiErrorCode>();
    expectTypeOf<PhotoTooLargeError['code']>().toEqualTypeOf<'photo_too_large'>();
    expectTypeOf<NotAnImageError>().toExtend<VsfError>();
  });

  it('exports routes as plain data', () => {
    expectTypeOf(apiEndpoints.getCar).toExtend<Route>();
    expectTypeOf(apiEndpoints.listCars.paginated).toEqualTypeOf<true>();
    expectTypeOf(apiEndpoints.getCar.paginated).toEqualTypeOf<false>();
    expectTypeOf(apiEndpoints.getCar.path).toEqualTypeOf<'/cars/{carId}'>();
    const compileOnly = async () => {
      // @ts-expect-error the route table carries no schema
      apiEndpoints.createCar.body;
      const sdk = await import('../src/index.js');
      // @ts-expect-error record and body types are types: the SDK's JavaScript has no schema
      sdk.V1CarCreate;
    };
    expectTypeOf(compileOnly).toBeFunction();
  });

  it('types client.request() by the route', () => {
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
