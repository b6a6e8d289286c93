import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
import {
  API_BASE_PATHS,
  type ApiSurface,
  acceptsIdempotencyKey,
  type EndpointDefinition,
  errorStatuses,
  type FieldScope,
} from '../endpoint.js';
import { adminEndpoints, apiEndpoints } from '../endpoints/index.js';
import { EXTENSIONS_HEADER, SERVER_EXTENSIONS } from '../extensions.js';
import { ApiError, DEFAULT_PAGE_SIZE } from '../schemas/common.js';
import { ImageMediaType } from '../schemas/image-upload.js';
import { z } from '../zod.js';
import { type SchemaObject, schemaExample } from './schema-example.js';

export const API_TITLE = 'Car Storage API';
export const API_VERSION = '1.1.0';

const errorResponses: Record<number, string> = {
  400: 'Invalid request: `validation_error` (details lists each problem) or `invalid_json`',
  401: 'Missing, unknown, expired or revoked credentials (`unauthorized`)',
  403: 'The key lacks a scope (`Missing scope: <scope>`) or the API is disabled for the team (`forbidden`)',
  404: 'The record does not exist or belongs to another team (`not_found`)',
  409: 'The request conflicts with the current state, or its `Idempotency-Key` was used with another body or is still in flight (`conflict`)',
  410: 'The cursor is older than the server keeps events (`gone`): resync, then follow from the current end',
  408: 'The body stopped arriving: no bytes for 60 s (`request_timeout`); send the request again with the same `Idempotency-Key`',
  413: 'The body is over its size limit (`payload_too_large`)',
  415: 'The body is not JSON (nor, where the `binary-upload` extension applies, an image), or is in a `Content-Encoding` other than gzip, deflate or br, or a charset other than UTF-8 (`unsupported_media_type`)',
  429: 'Too many requests; retry after `Retry-After` seconds (`rate_limited`)',
  500: 'Unexpected server failure (`internal_error`)',
};

/** Headers an error response carries: the challenge of a 401 (RFC 6750), the wait of a 429. */
const ERROR_HEADERS: Record<number, Record<string, { description: string; schema: { type: 'string' | 'integer' } }>> = {
  401: {
    'WWW-Authenticate': {
      description:
        'The scheme to authenticate with: `Bearer realm="vsf"`, with `error="invalid_token"` when the key sent was refused',
      schema: { type: 'string' },
    },
  },
  429: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } },
};

const adminErrorResponses: Record<number, string> = {
  ...errorResponses,
  401: 'Missing or wrong admin token (`unauthorized`)',
  403: 'The admin API is disabled: the server has no `VSF_ADMIN_TOKEN` (`forbidden`)',
  404: 'The team or key does not exist (`not_found`)',
};

/** An `ApiError` body as the server sends it for `status` on `endpoint`, with the server's own wording. */
function errorExample(endpoint: EndpointDefinition, status: number, bodyExample: unknown): ApiError {
  const admin = endpoint.surface === 'admin';
  switch (status) {
    case 400: {
      const fields = bodyExample && typeof bodyExample === 'object' ? Object.entries(bodyExample) : [];
      const [field, value] = fields[0] ?? [];
      const expected = Array.isArray(value) ? 'array' : value === null ? 'object' : typeof value;
      const issue = field
        ? { path: field, message: `Invalid input: expected ${expected}, received undefined` }
        : { path: 'limit', message: 'Too big: expected number to be <=200' };
      return { error: 'Validation failed', code: 'validation_error', details: [issue] };
    }
    case 401:
      return { error: admin ? 'Invalid admin token' : 'API key revoked', code: 'unauthorized', details: null };
    case 403: {
      const scope = endpoint.scopes.all[0] ?? endpoint.scopes.any?.[0];
      const error = admin
        ? 'Admin API is disabled; set VSF_ADMIN_TOKEN to enable it'
        : scope
          ? `Missing scope: ${scope}`
          : 'API is disabled for this team';
      return { error, code: 'forbidden', details: null };
    }
    case 404:
      return { error: `${endpoint.resourceName ?? 'Record'} not found`, code: 'not_found', details: null };
    case 409:
      return endpoint.errors?.includes(409)
        ? {
            error: endpoint.inUse ?? 'The request conflicts with the current state of the record',
            code: 'conflict',
            details: null,
          }
        : {
            error: 'This Idempotency-Key was already used with a different request; use a new key for a new request',
            code: 'conflict',
            details: { reason: 'idempotency_key_reused' },
          };
    case 410:
      return {
        error:
          'Events after cursor 12 are no longer kept (the oldest kept follows 4810): resync the records, then follow from the nextCursor of GET /events?limit=0',
        code: 'gone',
        details: null,
      };
    case 408:
      return {
        error:
          'The request body stopped arriving (no bytes for 60 s); send the request again, with the same Idempotency-Key',
        code: 'request_timeout',
        details: null,
      };
    case 413:
      return { error: 'Request body is larger than the 5 MB limit', code: 'payload_too_large', details: null };
    case 415:
      return {
        error: 'Unsupported Content-Encoding "compress"; send identity, gzip, deflate or br',
        code: 'unsupported_media_type',
        details: null,
      };
    case 429:
      return {
        error: 'Rate limit of 1200 requests per 60 s exceeded; retry after 12 s',
        code: 'rate_limited',
        details: null,
      };
    default:
      return { error: 'Internal server error', code: 'internal_error', details: null };
  }
}

function describeScopes(endpoint: EndpointDefinition): string {
  if (endpoint.surface === 'admin')
    return '**Scopes:** none; the admin token (`VSF_ADMIN_TOKEN`) authorizes every call.';
  const { all, any } = endpoint.scopes;
  const parts: string[] = [];
  if (all.length > 0) parts.push(all.map((s) => `\`${s}\``).join(' and '));
  if (any && any.length > 0) parts.push(`one of ${any.map((s) => `\`${s}\``).join(', ')}`);
  const base = parts.length > 0 ? `**Scopes:** ${parts.join(', plus ')}.` : '**Scopes:** none (any valid key).';
  return [base, ...(endpoint.fieldScopes ?? []).map(describeFieldScope)].join(' ');
}

function describeFieldScope(rule: FieldScope): string {
  const { all, any } = rule.scopes;
  const scopes = [
    ...all.map((s) => `\`${s}\``),
    ...(any?.length ? [`one of ${any.map((s) => `\`${s}\``).join(', ')}`] : []),
  ];
  const when = rule.values ? ` set to ${rule.values.map((v) => `\`${String(v)}\``).join(' or ')}` : '';
  const held = rule.whenHeld
    ? ` (${rule.whenHeld.values.map((v) => `\`${String(v)}\``).join(' or ')} only when ${rule.whenHeld.holds})`
    : '';
  return `Sending \`${rule.field}\`${when} ${rule.effect}, so it also needs ${scopes.join(' and ')}${held}.`;
}

function describeBinaryUpload(endpoint: EndpointDefinition): string | undefined {
  if (!endpoint.binaryUpload) return undefined;
  const fields = Object.keys(endpoint.binaryUpload.query.shape).map((f) => `\`${f}\``);
  return `Extension \`binary-upload\` (announced in the \`${EXTENSIONS_HEADER}\` header of every response): the body may instead be the image's bytes with its \`image/*\` type as \`Content-Type\`, and ${fields.join(', ')} in the query; or \`multipart/form-data\` with the image in a \`file\` part (its \`image/*\` type in the part's \`Content-Type\` or a \`contentType\` field) and ${fields.join(', ')} as fields (\`filename\` defaults to the part's). The same rules and limits apply; nothing is base64-encoded.`;
}

/** The `multipart/form-data` form of an image upload: the image in `file`, the other fields beside it. */
function binaryUploadForm(query: z.ZodObject) {
  const { filename, ...fields } = query.shape as Record<string, z.ZodType>;
  return z.object({
    file: z.string().openapi({ format: 'binary', description: 'The image, up to 3 MiB, with its `image/*` type' }),
    ...fields,
    ...(filename
      ? { filename: filename.optional().openapi({ description: "Defaults to the file part's filename" }) }
      : {}),
    contentType: ImageMediaType.optional().openapi({ description: "The image's type, if the file part has none" }),
  });
}

/**
 * The query of an image body, documented optional: OpenAPI 3.0 cannot require a parameter for one request
 * content type only, and a JSON request sends these fields in its body. Each says so, so a generated client
 * knows to send them with an image.
 */
function binaryUploadParameters(query: z.ZodObject): z.ZodObject {
  const fields = Object.entries(query.shape).map(([name, schema]) => [
    name,
    (schema as z.ZodType).optional().openapi({
      description: `Required with an \`image/*\` body (extension \`binary-upload\`); with a JSON body or a \`multipart/form-data\` form, send \`${name}\` in the body instead (a form takes no query).`,
    }),
  ]);
  return z.object(Object.fromEntries(fields));
}

const IdempotencyHeaders = z.object({
  'Idempotency-Key': z.string().min(1).max(255).optional().openapi({
    description:
      'Makes a retried POST safe: the same key with the same body within 24 h replays the first response (`Idempotent-Replayed: true`) instead of creating twice.',
    example: 'a7f3c2e4-create-car-1',
  }),
});

function describeExtension(endpoint: EndpointDefinition): string | undefined {
  if (!endpoint.extension) return undefined;
  return `Extension \`${endpoint.extension}\`, not part of the published API: call it only when a response named it in the \`${EXTENSIONS_HEADER}\` header.`;
}

function register(registry: OpenAPIRegistry, endpoint: EndpointDefinition, security: Record<string, string[]>[]) {
  const descriptions = endpoint.surface === 'admin' ? adminErrorResponses : errorResponses;
  const description = [
    describeExtension(endpoint),
    endpoint.description,
    describeBinaryUpload(endpoint),
    describeScopes(endpoint),
  ]
    .filter(Boolean)
    .join('\n\n');
  const idempotent = acceptsIdempotencyKey(endpoint);
  registry.registerPath({
    operationId: endpoint.operationId,
    ...(endpoint.extension ? { 'x-vsf-extension': endpoint.extension } : {}),
    method: endpoint.method,
    path: endpoint.path,
    summary: endpoint.summary,
    description,
    tags: [endpoint.sdk.namespace[0] ?? 'default'],
    security,
    // A route beside the surface's base (`/api/media/…` next to `/api/v1`) says where it lives.
    ...(endpoint.basePath ? { servers: [{ url: endpoint.basePath }] } : {}),
    request: {
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { query: endpoint.query } : {}),
      ...(endpoint.binaryUpload ? { query: binaryUploadParameters(endpoint.binaryUpload.query) } : {}),
      ...(idempotent ? { headers: IdempotencyHeaders } : {}),
      ...(endpoint.body
        ? {
            body: {
              required: true,
              content: {
                'application/json': { schema: endpoint.body },
                ...(endpoint.binaryUpload
                  ? {
                      'image/*': { schema: { type: 'string', format: 'binary' } },
                      'multipart/form-data': {
                        schema: binaryUploadForm(endpoint.binaryUpload.query),
                        encoding: { file: { contentType: 'image/*' } },
                      },
                    }
                  : {}),
              },
            },
          }
        : {}),
    },
    responses: {
      [endpoint.response.status]: {
        description: endpoint.response.description,
        content: { [endpoint.response.contentType ?? 'application/json']: { schema: endpoint.response.schema } },
      },
      ...Object.fromEntries(
        errorStatuses(endpoint).map((status) => [
          status,
          {
            description: descriptions[status] ?? 'Error',
            ...(ERROR_HEADERS[status] ? { headers: ERROR_HEADERS[status] } : {}),
            content: { 'application/json': { schema: ApiError } },
          },
        ]),
      ),
    },
  });
}

/**
 * zod-to-openapi writes a nullable union as `anyOf: [..., {nullable: true}]`, a `nullable` without a
 * `type` that OpenAPI 3.0 does not allow; the same meaning, valid, is `nullable` on each typed branch. A
 * reference cannot carry `nullable` itself: it is wrapped (`allOf: [$ref]`) with the component's `type`
 * beside it, and a union left with one branch is that branch.
 */
function moveNullIntoBranches(node: unknown, components: Record<string, SchemaObject>): void {
  if (Array.isArray(node)) {
    for (const item of node) moveNullIntoBranches(item, components);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    const isBareNull = (b: unknown) => JSON.stringify(b) === '{"nullable":true}';
    if (!branches.some(isBareNull)) continue;
    const typed = branches
      .filter((b) => !isBareNull(b))
      .map((b: Record<string, unknown>) =>
        b.$ref ? nullableReference(b.$ref as string, components) : { ...b, nullable: true },
      );
    if (typed.length === 1) {
      delete schema[key];
      Object.assign(schema, typed[0], schema);
    } else schema[key] = typed;
  }
  // `z.unknown()` alone (e.g. a record's values) comes out as the same bare `{nullable: true}`; `{}` is
  // OpenAPI 3.0's "any value, null included".
  for (const [key, value] of Object.entries(schema)) {
    if (JSON.stringify(value) === '{"nullable":true}') schema[key] = {};
    else moveNullIntoBranches(value, components);
  }
}

/** `$ref` or null: the component wrapped, with its `type` beside `nullable` as OpenAPI 3.0 asks. */
function nullableReference(ref: string, components: Record<string, SchemaObject>): Record<string, unknown> {
  const type = (components[ref.split('/').pop() as string] as { type?: unknown } | undefined)?.type;
  return { ...(type ? { type } : {}), allOf: [{ $ref: ref }], nullable: true };
}

interface OperationObject {
  requestBody?: { content: Record<string, { schema: SchemaObject; example?: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: SchemaObject; example?: unknown }> }>;
}

/**
 * Gives every request body and response an example: bodies and success responses from their schemas
 * (see schema-example.ts), errors with the message the server really sends.
 */
function addExamples(document: OpenApiDocument, endpoints: readonly EndpointDefinition[]): void {
  const components = (document.components?.schemas ?? {}) as Record<string, SchemaObject>;
  for (const endpoint of endpoints) {
    const operation = (document.paths?.[endpoint.path] as Record<string, OperationObject> | undefined)?.[
      endpoint.method
    ];
    if (!operation) throw new Error(`OpenAPI: ${endpoint.operationId} was not generated`);
    const body = operation.requestBody?.content['application/json'];
    if (body) body.example ??= schemaExample(body.schema, components, undefined, 0, true);
    const image = operation.requestBody?.content['image/*'];
    if (image) image.example ??= '(the image’s bytes)';
    const form = operation.requestBody?.content['multipart/form-data'];
    if (form) form.example ??= { ...(schemaExample(form.schema, components) as object), file: '(the image’s bytes)' };
    for (const [status, response] of Object.entries(operation.responses)) {
      // Bytes have no JSON example; a placeholder string keeps the every-body-has-an-example check whole.
      const bytes = endpoint.response.contentType ? response.content?.[endpoint.response.contentType] : undefined;
      if (bytes) bytes.example ??= '(the file’s bytes)';
      const media = response.content?.['application/json'];
      if (!media) continue;
      if (Number(status) >= 400) media.example = errorExample(endpoint, Number(status), body?.example);
      else if (endpoint.paginated) {
        const page = schemaExample(media.schema, components) as Record<string, unknown>;
        media.example = { ...page, page: 1, limit: DEFAULT_PAGE_SIZE, total: 1 };
      } else media.example = schemaExample(media.schema, components);
    }
  }
}

export type OpenApiDocument = ReturnType<OpenApiGeneratorV3['generateDocument']>;

/** Builds the OpenAPI 3.0 document of one API surface from the contract's declarations. */
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
      license: { name: 'MIT', url: 'https://opensource.org/license/mit' },
      description:
        surface === 'v1'
          ? "Team-scoped REST API of a vehicle storage facility. Every request carries a team API key; a key reads and writes only its own team's records, within the scopes it was created with."
          : "Backend of the dashboard's integration settings: teams, the API switch and API keys.",
    },
    servers: [{ url: API_BASE_PATHS[surface] }],
    security,
  });
  if (document.components?.schemas) document.components.schemas = sortKeys(document.components.schemas);
  if (surface === 'v1') Object.assign(document, { 'x-vsf-extensions': [...SERVER_EXTENSIONS] });
  moveNullIntoBranches(document, (document.components?.schemas ?? {}) as Record<string, SchemaObject>);
  addExamples(document, ordered);
  return document;
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
