import { apiEndpoints, type EndpointDefinition } from '@vsf/contract';
import { describe, expect, it } from 'vitest';
import { endpointFixtures, fillIds } from './support/endpoint-fixtures.js';
import { useWorldServer } from './support/world-server.js';

// Generated from the contract: every endpoint that answers 201, called with its fixture, names the new
// record in a `Location` that answers 200 with that same record for the same key — so a client can
// always follow it, and a new create endpoint is covered as soon as it has a fixture.
const creates = (Object.values(apiEndpoints) as EndpointDefinition[]).filter((e) => e.response.status === 201);

const suite = useWorldServer();

describe('Location headers', () => {
  it('cover at least the car event and photo creates', () => {
    expect(creates.map((e) => e.operationId)).toEqual(expect.arrayContaining(['createCarEvent', 'createCarPhoto']));
  });

  for (const endpoint of creates) {
    it(`${endpoint.method.toUpperCase()} ${endpoint.path} → Location answers 200 with the created record`, async () => {
      const fixture = endpointFixtures[endpoint.operationId];
      expect(fixture, `add ${endpoint.operationId} to endpoint-fixtures.ts`).toBeDefined();
      const path = endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => suite.world[name] as string);
      const res = await suite.api(endpoint.method, path, {
        ...(fixture?.body !== undefined ? { body: fillIds(fixture.body, suite.world) } : {}),
        ...(fixture?.query ? { query: fixture.query } : {}),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const location = res.headers.get('location');
      expect(location, 'a 201 names what it created').toMatch(/^\/api\/v1\//);
      const fetched = await suite.api('GET', (location as string).slice('/api/v1'.length));
      expect(fetched.status, `GET ${location}: ${JSON.stringify(fetched.body)}`).toBe(200);
      // A webhook endpoint's signing secret is in its create response only.
      const { secret: _secret, ...shown } = res.body.data;
      expect(fetched.body.data).toEqual(endpoint.operationId === 'createWebhook' ? shown : res.body.data);
    });
  }
});
