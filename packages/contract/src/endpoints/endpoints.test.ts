import { describe, expect, it } from 'vitest';
import type { EndpointDefinition } from '../endpoint.js';
import { pathParamNames, toExpressPath } from '../endpoint.js';
import { isScope } from '../scopes.js';
import { adminEndpoints, apiEndpoints } from './index.js';

const all: [string, EndpointDefinition][] = [...Object.entries(apiEndpoints), ...Object.entries(adminEndpoints)];

describe('endpoint declarations', () => {
  it('are keyed by their operation id, which is unique', () => {
    for (const [key, e] of all) expect(e.operationId).toBe(key);
    expect(new Set(all.map(([, e]) => e.operationId)).size).toBe(all.length);
  });

  it('have one declaration per method and path, and one SDK method per namespace and name', () => {
    const routes = all.map(([, e]) => `${e.surface} ${e.method} ${e.path}`);
    expect(new Set(routes).size).toBe(routes.length);
    const sdkNames = all.map(([, e]) => `${e.surface} ${[...e.sdk.namespace, e.sdk.method].join('.')}`);
    expect(new Set(sdkNames).size).toBe(sdkNames.length);
  });

  it('declare a params schema for exactly the path parameters', () => {
    for (const [, e] of all) {
      const names = pathParamNames(e.path);
      expect(Object.keys(e.params?.shape ?? {}).sort(), e.operationId).toEqual([...names].sort());
    }
  });

  it('name only known scopes, and every write of the v1 API needs read and write of its resource', () => {
    for (const [, e] of Object.entries(apiEndpoints) as [string, EndpointDefinition][]) {
      for (const s of [...e.scopes.all, ...(e.scopes.any ?? [])])
        expect(isScope(s), `${e.operationId}: ${s}`).toBe(true);
      if (e.method !== 'get') {
        const writes = e.scopes.all.filter((s) => s.startsWith('write:'));
        expect(writes.length, e.operationId).toBeGreaterThan(0);
        for (const w of writes) {
          const resource = w.slice('write:'.length);
          if (w === e.scopes.all.find((s) => s.startsWith('write:'))) {
            expect(e.scopes.all, e.operationId).toContain(`read:${resource}`);
          }
        }
      }
    }
  });

  it('declare field scopes and references only for fields of their body, with known scopes', () => {
    for (const [, e] of all) {
      const declared = [...(e.fieldScopes ?? []).map((r) => r.field), ...(e.references ?? [])];
      if (declared.length === 0) continue;
      const shape = (e.body as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
      for (const field of declared) expect(Object.keys(shape), `${e.operationId}: ${field}`).toContain(field);
      for (const rule of e.fieldScopes ?? []) {
        for (const s of [...rule.scopes.all, ...(rule.scopes.any ?? [])]) expect(isScope(s), e.operationId).toBe(true);
        expect(e.scopes.all, `${e.operationId}: ${rule.field} needs more than the endpoint already does`).not.toEqual(
          expect.arrayContaining([...rule.scopes.all]),
        );
      }
    }
  });

  it('converts contract paths to Express paths', () => {
    expect(toExpressPath('/cars/{carId}/events')).toBe('/cars/:carId/events');
    expect(pathParamNames('/a/{x}/b/{y}')).toEqual(['x', 'y']);
  });
});
