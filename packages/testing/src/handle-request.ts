import {
  acceptsIdempotencyKey,
  type EndpointDefinition,
  firstMissingScope,
  serverPath,
  toValidationDetails,
  triggeredFieldScopes,
  waitsForRecord,
} from '@vsf/contract';
import { type MockResource, resourceOf, type StandardOperation } from './contract-resources.js';
import { listEvents } from './events-feed.js';
import { fingerprint, IDEMPOTENCY_TTL_MS, validateIdempotencyKey } from './idempotency.js';
import { conflict, forbidden, MockHttpError, notFound, notImplemented, validationFailed } from './mock-errors.js';
import type { KeyRing, MockKey } from './mock-keys.js';
import type { MockStore, TeamData } from './mock-store.js';
import { SPECIAL_OPERATIONS } from './special-operations.js';
import type { OperationContext } from './standard-operations.js';
import * as standard from './standard-operations.js';
import { UNIMPLEMENTED_OPERATIONS } from './unimplemented.js';

export interface MockAnswer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export interface RequestState {
  store: MockStore;
  keys: KeyRing;
  /** The team's store, made (with its default event types) the first time one of its keys is used. */
  team(name: string): TeamData;
}

const STANDARD: Record<StandardOperation, (ctx: OperationContext) => unknown> = {
  list: standard.list,
  get: standard.get,
  create: standard.create,
  update: standard.update,
  delete: standard.remove,
};

const OWN: Readonly<Record<string, (ctx: OperationContext) => unknown>> = {
  ...SPECIAL_OPERATIONS,
  listEvents,
  getAuthKey: ({ key, team }) => ({ data: authKeyOf(key, team) }),
};

const authKeyOf = (key: MockKey, team: TeamData) => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  teamId: team.id,
  scopes: [...key.scopes],
  expiresAt: key.expiresAt,
  createdAt: key.createdAt,
});

/** The query string as Express's parser reads it: a repeated key is an array. */
function queryOf(url: URL): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of url.searchParams) {
    const seen = query[name];
    query[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return query;
}

async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === '') return undefined;
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new MockHttpError(
      415,
      'unsupported_media_type',
      `Send the body as JSON (Content-Type: application/json); got ${type ? `"${type.slice(0, 100)}"` : 'no Content-Type'}`,
    );
  }
  const trimmed = text.trimStart();
  if (trimmed[0] !== '{' && trimmed[0] !== '[') throw new MockHttpError(400, 'invalid_json', 'Malformed JSON body');
  try {
    return JSON.parse(text);
  } catch {
    throw new MockHttpError(400, 'invalid_json', 'Malformed JSON body');
  }
}

/**
 * One request to one contract endpoint, through the server's steps in the server's order
 * (http/bind-endpoints.ts): authenticate, scopes, body, path ids (a malformed one is a 404), query, body
 * schema, the body's field scopes, the Idempotency-Key, then the operation.
 */
export async function handleRequest(
  state: RequestState,
  endpoint: EndpointDefinition,
  request: Request,
  pathParams: Record<string, string>,
): Promise<MockAnswer> {
  const key = state.keys.authenticate(request, state.store.clock.now());
  const missing = firstMissingScope(key.scopes, endpoint.scopes);
  if (missing) throw forbidden(`Missing scope: ${missing}`);
  const raw = endpoint.body ? await readJson(request) : undefined;

  const params = endpoint.params?.safeParse(pathParams);
  if (params && !params.success) throw notFound(endpoint.resourceName ?? 'Record');
  const url = new URL(request.url);
  const rawQuery = queryOf(url);
  const query = endpoint.query?.safeParse(rawQuery);
  if (query && !query.success) throw validationFailed(toValidationDetails(query.error));
  if (!endpoint.query && Object.keys(rawQuery).length > 0) {
    throw validationFailed([{ path: '', message: `Unknown query parameters: ${Object.keys(rawQuery).join(', ')}` }]);
  }
  let body: Record<string, unknown> = {};
  if (endpoint.body) {
    if (raw === undefined) {
      throw validationFailed([{ path: '', message: 'Expected a JSON object body (Content-Type: application/json)' }]);
    }
    const parsed = endpoint.body.safeParse(raw);
    if (!parsed.success) throw validationFailed(toValidationDetails(parsed.error));
    body = parsed.data as Record<string, unknown>;
    for (const rule of triggeredFieldScopes(endpoint, body)) {
      const lacking = waitsForRecord(rule, body) ? undefined : firstMissingScope(key.scopes, rule.scopes);
      if (lacking) throw forbidden(`Missing scope: ${lacking}`);
    }
  }
  const why = UNIMPLEMENTED_OPERATIONS[endpoint.operationId];
  if (why !== undefined) throw notImplemented(endpoint.operationId, `(${why})`);

  const team = state.team(key.team);
  const ctx: OperationContext = {
    store: state.store,
    team,
    key,
    endpoint,
    resource: resourceOf(endpoint) as MockResource | undefined,
    params: (params?.data ?? {}) as Record<string, string>,
    query: (query?.data ?? {}) as Record<string, unknown>,
    body,
    signal: request.signal,
  };
  const run = async (): Promise<MockAnswer> => {
    const operation = OWN[endpoint.operationId] ?? STANDARD[endpoint.sdk.method as StandardOperation];
    if (!operation || (!OWN[endpoint.operationId] && !ctx.resource)) throw notImplemented(endpoint.operationId);
    const result = (await operation(ctx)) as { data?: { id?: unknown } };
    const headers: Record<string, string> = {};
    if (endpoint.response.status === 201 && typeof result?.data?.id === 'string') {
      headers.Location = `${url.pathname.replace(/\/+$/, '')}/${result.data.id}`;
    }
    return { status: endpoint.response.status, body: result, headers };
  };

  const idempotencyKey = request.headers.get('idempotency-key');
  if (!acceptsIdempotencyKey(endpoint) || idempotencyKey === null) return run();
  validateIdempotencyKey(idempotencyKey);
  const route = serverPath(endpoint).replace(/\{(\w+)\}/g, (_, name: string) => ctx.params[name]?.toLowerCase() ?? '');
  const slot = `${key.id}|POST|${route}|${idempotencyKey}`;
  const print = fingerprint(url.search, raw);
  const now = state.store.clock.now().getTime();
  const stored = team.idempotency.get(slot);
  if (stored && stored.expiresAt > now) {
    if (stored.fingerprint !== print) {
      throw conflict(
        'This Idempotency-Key was already used with a different request; use a new key for a new request',
        { reason: 'idempotency_key_reused' },
      );
    }
    return {
      status: stored.status,
      body: structuredClone(stored.body),
      headers: { ...stored.headers, 'Idempotent-Replayed': 'true' },
    };
  }
  const answer = await run();
  team.idempotency.set(slot, { fingerprint: print, expiresAt: now + IDEMPOTENCY_TTL_MS, ...structuredClone(answer) });
  return answer;
}
