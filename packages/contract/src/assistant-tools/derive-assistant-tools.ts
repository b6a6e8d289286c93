import { type EndpointDefinition, pathParamNames, serverPath } from '../endpoint.js';
import { apiEndpoints } from '../endpoints/index.js';
import { z } from '../zod.js';
import { type AssistantTool, type JsonSchemaObject, toolNameOf } from './assistant-tool.js';

/**
 * Operations that act outside the team's records (a message or post delivered, a URL fetched or called)
 * or cannot be taken back once done: assistants should confirm them with the person first.
 */
const SENDS = /^(send|publish|cancel)|Send$/;
const REACHES_OUT = /^(send|publish)|Send$|^create(Webhook|CarPhoto|MarketingAsset)$/;

type Json = Record<string, unknown>;

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  return withoutFormatPatterns(rest) as Json;
}

/**
 * zod writes a `pattern` beside `format: uuid` or `date-time` that says the same thing at length; the
 * format alone keeps `tools/list` a fifth of the size, and the API still checks every value.
 */
function withoutFormatPatterns(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutFormatPatterns);
  if (!schema || typeof schema !== 'object') return schema;
  const entries = Object.entries(schema as Json);
  const formatted = typeof (schema as Json).format === 'string';
  return Object.fromEntries(
    entries
      .filter(([key]) => !(formatted && key === 'pattern'))
      .map(([key, value]) => [key, withoutFormatPatterns(value)]),
  );
}

/**
 * A record's declared fields are all there, but a server may add fields (an extension, a newer version):
 * an output schema that forbade them would make clients reject a valid answer.
 */
function allowingMoreFields(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(allowingMoreFields);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema as Json)
      .filter(([key, value]) => !(key === 'additionalProperties' && value === false))
      .map(([key, value]) => [key, allowingMoreFields(value)]),
  );
}

function objectParts(schema: z.ZodType | undefined): { properties: Json; required: string[] } {
  if (!schema) return { properties: {}, required: [] };
  const json = jsonSchemaOf(schema, 'input');
  return { properties: (json.properties as Json | undefined) ?? {}, required: (json.required as string[]) ?? [] };
}

/** Path, query and body parameters as one object: the names never overlap (a test holds the contract to it). */
function inputSchemaOf(endpoint: EndpointDefinition): JsonSchemaObject {
  const parts = [endpoint.params, endpoint.query, endpoint.body].map(objectParts);
  const properties = Object.assign({}, ...parts.map((p) => p.properties)) as Json;
  const required = parts.flatMap((p) => p.required);
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

function descriptionOf(endpoint: EndpointDefinition): string {
  const scopes = [
    ...endpoint.scopes.all,
    ...(endpoint.scopes.any?.length ? [`one of ${endpoint.scopes.any.join(', ')}`] : []),
  ];
  return [
    endpoint.summary,
    endpoint.description,
    endpoint.binaryUpload && 'Send the image as `base64` (or `sourceUrl`, a public https URL the server fetches).',
    endpoint.paginated &&
      'Returns one page (`page`, `limit` up to 200, `total`); ask for the next with `page` + 1 until `page * limit >= total`.',
    endpoint.fieldScopes?.length &&
      endpoint.fieldScopes
        .map((f) => `Sending \`${f.field}\` ${f.effect} and needs ${f.scopes.all.join(', ')}.`)
        .join(' '),
    scopes.length > 0 ? `Needs scopes: ${scopes.join(', ')}.` : 'Needs no scope.',
  ]
    .filter(Boolean)
    .join('\n\n');
}

export function assistantToolOf(endpoint: EndpointDefinition): AssistantTool {
  const method = endpoint.method.toUpperCase() as AssistantTool['method'];
  const binaryResponse = endpoint.response.contentType !== undefined;
  const readOnly = method === 'GET';
  return {
    name: toolNameOf(endpoint.operationId),
    title: endpoint.summary,
    description: descriptionOf(endpoint),
    inputSchema: inputSchemaOf(endpoint),
    ...(binaryResponse
      ? {}
      : { outputSchema: allowingMoreFields(jsonSchemaOf(endpoint.response.schema, 'output')) as JsonSchemaObject }),
    annotations: {
      title: endpoint.summary,
      readOnlyHint: readOnly,
      destructiveHint: method === 'DELETE' || SENDS.test(endpoint.operationId),
      // Reads, updates and deletes are; a POST is made so: the call's own idempotency key replays a repeat.
      idempotentHint: true,
      openWorldHint: REACHES_OUT.test(endpoint.operationId),
    },
    operationId: endpoint.operationId,
    method,
    path: serverPath(endpoint),
    pathParams: pathParamNames(endpoint.path),
    queryParams: endpoint.query ? Object.keys(endpoint.query.shape) : [],
    bodyParams: Object.keys(objectParts(endpoint.body).properties),
    scopes: { all: [...endpoint.scopes.all], ...(endpoint.scopes.any ? { any: [...endpoint.scopes.any] } : {}) },
    paginated: endpoint.paginated === true,
    binaryResponse,
  };
}

/** Every operation of the API (`/api/v1` and the media beside it) as an assistant tool, by operation id order. */
export function deriveAssistantTools(endpoints: Record<string, EndpointDefinition> = apiEndpoints): AssistantTool[] {
  return Object.values(endpoints)
    .filter((endpoint) => endpoint.surface === 'v1')
    .sort((a, b) => a.operationId.localeCompare(b.operationId))
    .map(assistantToolOf);
}
