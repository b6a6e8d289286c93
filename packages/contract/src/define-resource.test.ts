import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineGroup, defineResource } from './define-resource.js';
import {
  type EndpointBody,
  type EndpointDefinition,
  type EndpointParams,
  type EndpointQuery,
  type EndpointResponse,
  errorStatuses,
  pathParamNames,
} from './endpoint.js';
import { adminEndpoints, apiEndpoints } from './endpoints/index.js';
import { V1Contact, V1ContactCreate, V1ContactUpdate } from './schemas/contact.js';
import { z } from './zod.js';

const shop = defineGroup({ surface: 'v1', prefix: '/shop', sdk: ['shop'], scope: 'customers' });
const orders = defineResource(shop, {
  name: 'ParkingOrder',
  path: '/parking-orders',
  record: V1Contact,
  createBody: V1ContactCreate,
  updateBody: V1ContactUpdate,
  filters: { customerId: z.uuid().optional() },
  delete: { summary: 'Cancel and delete an order', errors: [409] },
  actions: { confirm: { summary: 'Confirm an order' } },
});
const lines = defineResource(orders, {
  name: 'OrderLine',
  path: '/lines',
  id: 'lineId',
  label: 'RSVP line',
  scope: 'contacts',
  record: V1Contact,
  operations: ['list', 'get'],
});

const summary = (e: EndpointDefinition) => ({
  operationId: e.operationId,
  surface: e.surface,
  method: e.method,
  path: e.path,
  summary: e.summary,
  scopes: e.scopes,
  sdk: e.sdk,
  params: Object.keys(e.params?.shape ?? {}),
  query: Object.keys(e.query?.shape ?? {}),
  status: e.response.status,
  response: e.response.description,
  paginated: e.paginated ?? false,
  resourceName: e.resourceName,
  statuses: errorStatuses(e),
});

describe('defineResource', () => {
  it('derives the five standard endpoints and the actions of a resource from its declaration', () => {
    const derived = Object.values(orders.endpoints).map(summary);
    const read = { all: ['read:customers'] };
    const write = { all: ['read:customers', 'write:customers'] };
    const sdk = (method: string) => ({ namespace: ['shop', 'parkingOrders'], method });
    const page = ['page', 'limit', 'updatedAfter', 'ids', 'customerId'];
    expect(derived).toEqual([
      {
        ...{ operationId: 'listParkingOrders', surface: 'v1', method: 'get', path: '/shop/parking-orders' },
        ...{ summary: 'List parking orders', scopes: read, sdk: sdk('list'), params: [], query: page },
        ...{ status: 200, response: 'A page of orders', paginated: true, resourceName: undefined },
        statuses: [400, 401, 403, 429, 500],
      },
      {
        ...{
          operationId: 'getParkingOrder',
          surface: 'v1',
          method: 'get',
          path: '/shop/parking-orders/{parkingOrderId}',
        },
        ...{ summary: 'Get a parking order', scopes: read, sdk: sdk('get'), params: ['parkingOrderId'], query: [] },
        ...{ status: 200, response: 'The order', paginated: false, resourceName: 'Parking order' },
        statuses: [400, 401, 403, 404, 429, 500],
      },
      {
        ...{ operationId: 'createParkingOrder', surface: 'v1', method: 'post', path: '/shop/parking-orders' },
        ...{ summary: 'Create a parking order', scopes: write, sdk: sdk('create'), params: [], query: [] },
        ...{ status: 201, response: 'The order', paginated: false, resourceName: undefined },
        statuses: [400, 401, 403, 408, 409, 413, 415, 429, 500],
      },
      {
        ...{
          operationId: 'updateParkingOrder',
          surface: 'v1',
          method: 'patch',
          path: '/shop/parking-orders/{parkingOrderId}',
        },
        ...{
          summary: 'Update a parking order',
          scopes: write,
          sdk: sdk('update'),
          params: ['parkingOrderId'],
          query: [],
        },
        ...{ status: 200, response: 'The order', paginated: false, resourceName: 'Parking order' },
        statuses: [400, 401, 403, 404, 408, 413, 415, 429, 500],
      },
      {
        ...{
          operationId: 'deleteParkingOrder',
          surface: 'v1',
          method: 'delete',
          path: '/shop/parking-orders/{parkingOrderId}',
        },
        ...{
          summary: 'Cancel and delete an order',
          scopes: write,
          sdk: sdk('delete'),
          params: ['parkingOrderId'],
          query: [],
        },
        ...{ status: 200, response: 'Deleted', paginated: false, resourceName: 'Parking order' },
        statuses: [400, 401, 403, 404, 409, 429, 500],
      },
      {
        ...{ operationId: 'confirmParkingOrder', surface: 'v1', method: 'post' },
        ...{ path: '/shop/parking-orders/{parkingOrderId}/confirm', summary: 'Confirm an order', scopes: write },
        ...{ sdk: sdk('confirm'), params: ['parkingOrderId'], query: [], status: 200, response: 'The order' },
        ...{ paginated: false, resourceName: 'Parking order' },
        statuses: [400, 401, 403, 404, 409, 429, 500],
      },
    ]);
    expect(orders.endpoints.createParkingOrder.body).toBe(V1ContactCreate);
    expect(orders.endpoints.updateParkingOrder.body).toBe(V1ContactUpdate);
  });

  it('nests a child under its parent’s item path, namespace and name', () => {
    expect(Object.values(lines.endpoints).map(summary)).toMatchObject([
      {
        ...{ operationId: 'listOrderLines', path: '/shop/parking-orders/{parkingOrderId}/lines' },
        ...{ summary: 'List an order’s RSVP lines', scopes: { all: ['read:contacts'] }, params: ['parkingOrderId'] },
        ...{ sdk: { namespace: ['shop', 'parkingOrders', 'lines'], method: 'list' }, response: 'A page of lines' },
        resourceName: 'Parking order',
      },
      {
        ...{ operationId: 'getOrderLine', path: '/shop/parking-orders/{parkingOrderId}/lines/{lineId}' },
        ...{ summary: 'Get an RSVP line', params: ['parkingOrderId', 'lineId'], resourceName: 'RSVP line' },
      },
    ]);
  });

  it('gives a resource’s references to its create and update, unless an operation declares its own', () => {
    const referencing = defineResource(shop, {
      name: 'Visit',
      path: '/visits',
      record: V1Contact,
      createBody: V1ContactCreate,
      updateBody: V1ContactUpdate,
      references: ['customerId'],
      update: { references: [] },
    });
    const { listVisits, createVisit, updateVisit } = referencing.endpoints;
    expect([listVisits, createVisit, updateVisit].map((e) => (e as EndpointDefinition).references)).toEqual([
      undefined,
      ['customerId'],
      [],
    ]);
  });

  it('types each derived endpoint as exactly as a hand-written declaration (checked by tsc)', () => {
    const { listParkingOrders, getParkingOrder, createParkingOrder, confirmParkingOrder } = orders.endpoints;
    expectTypeOf(getParkingOrder.path).toEqualTypeOf<'/shop/parking-orders/{parkingOrderId}'>();
    expectTypeOf(confirmParkingOrder.path).toEqualTypeOf<'/shop/parking-orders/{parkingOrderId}/confirm'>();
    expectTypeOf(
      lines.endpoints.getOrderLine.path,
    ).toEqualTypeOf<'/shop/parking-orders/{parkingOrderId}/lines/{lineId}'>();
    expectTypeOf<keyof typeof lines.endpoints>().toEqualTypeOf<'listOrderLines' | 'getOrderLine'>();
    expectTypeOf<EndpointParams<typeof getParkingOrder>>().toEqualTypeOf<{ parkingOrderId: string }>();
    expectTypeOf<EndpointParams<typeof listParkingOrders>>().toEqualTypeOf<undefined>();
    expectTypeOf<EndpointQuery<typeof listParkingOrders>['customerId']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<EndpointBody<typeof createParkingOrder>>().toEqualTypeOf<z.output<typeof V1ContactCreate>>();
    expectTypeOf<EndpointResponse<typeof getParkingOrder>>().toEqualTypeOf<{ data: V1Contact }>();
    expectTypeOf(listParkingOrders.paginated).toEqualTypeOf<true>();
    expectTypeOf(createParkingOrder.response.status).toEqualTypeOf<201>();
  });

  it('prefixes operation ids with the group’s operation prefix', () => {
    const admin = defineGroup({ surface: 'admin', prefix: '', operationPrefix: 'admin', scope: 'customers' });
    const teams = defineResource(admin, { name: 'Team', path: '/teams', record: V1Contact, operations: ['get'] });
    expect(Object.keys(teams.endpoints)).toEqual(['adminGetTeam']);
  });

  it('refuses options for an operation it does not have, a resource without a scope, and a create without a body', () => {
    const declare = () =>
      defineResource(shop, { name: 'Order', path: '/o', record: V1Contact, operations: ['get'], list: {} });
    expect(declare).toThrow('Order: options for `list`, which is not among its operations');
    const group = defineGroup({ surface: 'v1', prefix: '' });
    expect(() => defineResource(group, { name: 'Order', path: '/o', record: V1Contact, operations: ['get'] })).toThrow(
      'Order: no scope on the resource or its group',
    );
    expect(() => defineResource(shop, { name: 'Order', path: '/o', record: V1Contact })).toThrow(
      'Order: `create` needs `createBody`',
    );
  });
});

describe('the standard endpoints of the API', () => {
  const all: EndpointDefinition[] = [...Object.values(apiEndpoints), ...Object.values(adminEndpoints)];
  const standard = all.filter((e) => ['list', 'get', 'create', 'update', 'delete'].includes(e.sdk.method));
  const verbs = { list: 'get', get: 'get', create: 'post', update: 'patch', delete: 'delete' } as const;

  it('follow the naming, method, path, status and paging rules', () => {
    expect(standard.length).toBeGreaterThan(100);
    for (const e of standard) {
      const operation = e.sdk.method as keyof typeof verbs;
      const item = operation === 'get' || operation === 'update' || operation === 'delete';
      expect(
        e.operationId.replace(/^admin(\w)/, (_, c: string) => c.toLowerCase()),
        e.operationId,
      ).toMatch(new RegExp(`^${operation}[A-Z]`));
      expect(e.method, e.operationId).toBe(verbs[operation]);
      if (item) expect(e.path, e.operationId).toMatch(/\/\{\w+\}$/);
      if (item) expect(e.resourceName, e.operationId).toBeDefined();
      expect(e.response.status, e.operationId).toBe(operation === 'create' ? 201 : 200);
      // The events feed (an extension) pages by cursor, not by the spec's page and limit.
      if (e.surface === 'v1' && !e.extension) expect(e.paginated ?? false, e.operationId).toBe(operation === 'list');
      expect(pathParamNames(e.path).length > 0, e.operationId).toBe(e.params !== undefined);
    }
  });

  it('declare only the errors that the path, method and body do not already imply', () => {
    for (const e of all) expect(e.errors ?? [], e.operationId).not.toContain(404);
  });
});
