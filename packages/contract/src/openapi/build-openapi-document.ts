import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
import { API_BASE_PATHS, type ApiSurface, type EndpointDefinition } from '../endpoint.js';
import { adminEndpoints, apiEndpoints } from '../endpoints/index.js';
import { ApiError } from '../schemas/common.js';

export const API_TITLE = 'Car Storage API';
export const API_VERSION = '1.1.0';

const errorResponses: Record<number, string> = {
  400: 'Invalid request: `validation_error` (details lists each problem) or `invalid_json`',
  401: 'Missing, unknown, expired or revoked credentials (`unauthorized`)',
  403: 'The key lacks a scope (`Missing scope: <scope>`) or the API is disabled for the team (`forbidden`)',
  404: 'The record does not exist or belongs to another team (`not_found`)',
  409: 'The request conflicts with the current state (`conflict`)',
  413: 'The body is over its size limit (`payload_too_large`)',
  429: 'Too many requests; retry after `Retry-After` seconds (`rate_limited`)',
  500: 'Unexpected server failure (`internal_error`)',
};

function describeScopes(endpoint: EndpointDefinition): string {
  const { all, any } = endpoint.scopes;
  const parts: string[] = [];
  if (all.length > 0) parts.push(all.map((s) => `\`${s}\``).join(' and '));
  if (any && any.length > 0) parts.push(`one of ${any.map((s) => `\`${s}\``).join(', ')}`);
  return parts.length > 0 ? `**Scopes:** ${parts.join(', plus ')}.` : '**Scopes:** none (any valid key).';
}

function register(registry: OpenAPIRegistry, endpoint: EndpointDefinition, security: Record<string, string[]>[]) {
  const errors = [400, 401, 403, ...(endpoint.errors ?? []), 429, 500].sort((a, b) => a - b);
  const description = [endpoint.description, endpoint.surface === 'v1' ? describeScopes(endpoint) : undefined]
    .filter(Boolean)
    .join('\n\n');
  registry.registerPath({
    operationId: endpoint.operationId,
    method: endpoint.method,
    path: endpoint.path,
    summary: endpoint.summary,
    description,
    tags: [endpoint.sdk.namespace[0] ?? 'default'],
    security,
    request: {
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { query: endpoint.query } : {}),
      ...(endpoint.body
        ? { body: { required: true, content: { 'application/json': { schema: endpoint.body } } } }
        : {}),
    },
    responses: {
      [endpoint.response.status]: {
        description: endpoint.response.description,
        content: { 'application/json': { schema: endpoint.response.schema } },
      },
      ...Object.fromEntries(
        errors.map((status) => [
          status,
          { description: errorResponses[status] ?? 'Error', content: { 'application/json': { schema: ApiError } } },
        ]),
      ),
    },
  });
}

/** Builds the OpenAPI 3.0 document of one API surface from the contract's declarations. */
export type OpenApiDocument = ReturnType<OpenApiGeneratorV3['generateDocument']>;

export function buildOpenApiDocument(surface: Exclude<ApiSurface, 'public'> = 'v1'): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.register('ApiError', ApiError);
  const endpoints: readonly EndpointDefinition[] = Object.values(surface === 'v1' ? apiEndpoints : adminEndpoints);
  if (surface === 'v1') {
    registry.registerComponent('securitySchemes', 'bearerAuth', {
      type: 'http',
      scheme: 'bearer',
      description: 'A team API key: `Authorization: Bearer vsf_<prefix>.<secret>`',
    });
    registry.registerComponent('securitySchemes', 'apiKeyHeader', {
      type: 'apiKey',
      in: 'header',
      name: 'x-api-key',
      description: 'The same team API key in the `x-api-key` header',
    });
  } else {
    registry.registerComponent('securitySchemes', 'adminToken', {
      type: 'http',
      scheme: 'bearer',
      description: "The server's `VSF_ADMIN_TOKEN`",
    });
  }
  const security = surface === 'v1' ? [{ bearerAuth: [] }, { apiKeyHeader: [] }] : [{ adminToken: [] }];
  // Module namespace order differs between loaders; sort so the checked-in document is byte-stable.
  const ordered = [...endpoints].sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
  for (const endpoint of ordered) register(registry, endpoint, security);

  const document = new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: '3.0.3',
    info: {
      title: surface === 'v1' ? API_TITLE : `${API_TITLE} — admin`,
      version: API_VERSION,
      description:
        surface === 'v1'
          ? "Team-scoped REST API of a vehicle storage facility. Every request carries a team API key; a key reads and writes only its own team's records, within the scopes it was created with."
          : "Backend of the dashboard's integration settings: teams, the API switch and API keys.",
    },
    servers: [{ url: API_BASE_PATHS[surface] }],
    security,
  });
  if (document.components?.schemas) document.components.schemas = sortKeys(document.components.schemas);
  return document;
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
