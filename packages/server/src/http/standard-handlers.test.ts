import { apiEndpoints, type EndpointDefinition } from '@vsf/contract';
import { describe, expect, it } from 'vitest';
import { RESOURCE_TABLES } from '../repositories/resource-tables.js';
import { createServices } from '../services/index.js';
import { apiHandlers, specialHandlers } from './handlers/api-handlers.js';
import { standardHandlers, standardMethod } from './standard-handlers.js';

const endpoints = Object.values(apiEndpoints) as EndpointDefinition[];
// Services only keep their dependencies until a method runs: enough to look their methods up.
const services = createServices({} as Parameters<typeof createServices>[0]);

describe('standard handlers', () => {
  it('give every contract endpoint a handler, derived or written by hand', () => {
    const missing = endpoints.filter(
      (e) => typeof (apiHandlers as Record<string, unknown>)[e.operationId] !== 'function',
    );
    expect(missing.map((e) => e.operationId)).toEqual([]);
  });

  const derivedInUse = endpoints.filter((e) => standardMethod(e) && !(e.operationId in specialHandlers));
  it.each(derivedInUse.map((e) => [e.operationId, e] as const))(
    '%s resolves to a method of its service',
    (_id, endpoint) => {
      const { service, method } = standardMethod(endpoint)!;
      const target = service(services) as Record<string, unknown> | undefined;
      expect(typeof target?.[method], `${endpoint.sdk.namespace.join('.')}.${method}`).toBe('function');
    },
  );

  it('derive every list/get/create/update/delete of a resource with a table, and only those', () => {
    const derived = Object.keys(standardHandlers(apiEndpoints)).sort();
    const expected = endpoints
      .filter(
        (e) =>
          e.sdk.namespace.join('.') in RESOURCE_TABLES &&
          ['list', 'get', 'create', 'update', 'delete'].includes(e.sdk.method),
      )
      .map((e) => e.operationId)
      .sort();
    expect(derived).toEqual(expected);
    expect(derived.length).toBeGreaterThan(100);
  });

  it('name no namespace the contract does not have', () => {
    const namespaces = new Set(endpoints.map((e) => e.sdk.namespace.join('.')));
    const named = [...Object.keys(RESOURCE_TABLES), ...Object.keys(services.resources)];
    expect(named.filter((ns) => !namespaces.has(ns))).toEqual([]);
  });

  it('serve every resource with a table, and only those', () => {
    expect(Object.keys(services.resources).sort()).toEqual(Object.keys(RESOURCE_TABLES).sort());
  });
});
