import { standardResources } from '@vsf/contract';
import { describe, expect, it } from 'vitest';
import { derivedCreateBody, derivedFixtures } from './support/derived-fixtures.js';
import { fillIds } from './support/endpoint-fixtures.js';
import { useWorldServer } from './support/world-server.js';

// A new resource gets its fixtures from the contract (derived-fixtures.ts), so the contract-driven suites
// cover it with no hand-written line. Proven here on the resources declared with a field table, as a new
// one would be: the derived create body is accepted, and so is the derived update of what it made.
const declared = ['cars', 'customers', 'locations', 'parking.zones', 'parking.spots'];

const suite = useWorldServer();

describe('derived fixtures', () => {
  it.each(declared)('%s: the derived create and update bodies are accepted by the server', async (namespace) => {
    const resource = standardResources().get(namespace);
    if (!resource?.endpoints.create || !resource.endpoints.update) throw new Error(`${namespace}: no create or update`);
    const created = await suite.api('POST', resource.endpoints.create.path, {
      body: fillIds(derivedCreateBody(resource), suite.world),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = (created.body as { data: { id: string } }).data.id;
    const update = derivedFixtures(new Set())[resource.endpoints.update.operationId];
    expect(update?.body).toBeDefined();
    const path = resource.endpoints.update.path.replace(`{${resource.itemParam}}`, id);
    const updated = await suite.api('PATCH', path, { body: fillIds(update?.body, suite.world) });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
  });

  it('leave out no operation of a resource the hand-written fixtures skip', () => {
    const fixtures = derivedFixtures(new Set());
    for (const resource of standardResources().values())
      for (const endpoint of Object.values(resource.endpoints))
        expect(fixtures[endpoint.operationId], endpoint.operationId).toBeDefined();
  });
});
