import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPENAPI_FILES } from '../scripts/openapi-files.js';
import {
  API_TITLE,
  API_VERSION,
  adminEndpoints,
  apiEndpoints,
  buildOpenApiDocument,
  type EndpointDefinition,
  errorStatuses,
} from '../src/index.js';

describe('checked-in OpenAPI documents', () => {
  for (const [surface, file] of Object.entries(OPENAPI_FILES) as [keyof typeof OPENAPI_FILES, string][]) {
    it(`${file} matches the contract (run \`pnpm generate\` if this fails)`, () => {
      const onDisk = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
      expect(onDisk).toBe(`${JSON.stringify(buildOpenApiDocument(surface), null, 2)}\n`);
    });
  }

  it('is an OpenAPI 3.0 document titled as the spec says, with bearer and x-api-key schemes', () => {
    const doc = buildOpenApiDocument('v1');
    expect(doc.openapi).toMatch(/^3\.0\./);
    expect(doc.info).toMatchObject({ title: API_TITLE, version: API_VERSION });
    expect(API_TITLE).toBe('Car Storage API');
    expect(API_VERSION).toBe('1.1.0');
    expect(doc.components?.securitySchemes).toMatchObject({
      bearerAuth: { type: 'http', scheme: 'bearer' },
      apiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key' },
    });
  });

  it('documents every operation with an id, a summary, its scopes and the ApiError responses', () => {
    const doc = buildOpenApiDocument('v1');
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      for (const [method, op] of Object.entries(item as Record<string, Record<string, unknown>>)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect(op.operationId, where).toBeTypeOf('string');
        expect(op.summary, where).toBeTypeOf('string');
        expect(op.description, where).toContain('**Scopes:**');
        const responses = op.responses as Record<string, unknown>;
        for (const status of ['400', '401', '403', '429', '500']) expect(responses, where).toHaveProperty(status);
      }
    }
  });

  it('documents every error status an operation can answer, each with an example of its own code', () => {
    const codes: Record<string, string> = {
      '400': 'validation_error',
      '401': 'unauthorized',
      '403': 'forbidden',
      '404': 'not_found',
      '408': 'request_timeout',
      '409': 'conflict',
      '410': 'gone',
      '413': 'payload_too_large',
      '415': 'unsupported_media_type',
      '429': 'rate_limited',
      '500': 'internal_error',
    };
    const surfaces = [
      ['v1', apiEndpoints],
      ['admin', adminEndpoints],
    ] as const;
    for (const [surface, endpoints] of surfaces) {
      const doc = buildOpenApiDocument(surface) as unknown as {
        paths: Record<
          string,
          Record<string, { responses: Record<string, { content: Record<string, { example: { code: string } }> }> }>
        >;
      };
      for (const endpoint of Object.values(endpoints) as EndpointDefinition[]) {
        const responses = doc.paths[endpoint.path]?.[endpoint.method]?.responses ?? {};
        const documented = Object.keys(responses).filter((status) => Number(status) >= 400);
        expect(documented, endpoint.operationId).toEqual(errorStatuses(endpoint).map(String));
        for (const status of documented) {
          expect(
            responses[status]?.content['application/json']?.example.code,
            `${endpoint.operationId} ${status}`,
          ).toBe(codes[status]);
        }
      }
    }
  });

  it('adds the statuses the shared machinery produces to the declared ones', () => {
    expect(errorStatuses(apiEndpoints.createCar)).toEqual([400, 401, 403, 408, 409, 413, 415, 429, 500]);
    expect(errorStatuses(apiEndpoints.listCars)).toEqual([400, 401, 403, 429, 500]);
    expect(errorStatuses(apiEndpoints.getCar)).toEqual([400, 401, 403, 404, 429, 500]);
    const adminOnly = Object.values(adminEndpoints) as EndpointDefinition[];
    for (const endpoint of adminOnly) expect(errorStatuses(endpoint)).not.toContain(429);
  });
});
