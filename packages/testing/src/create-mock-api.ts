import { apiEndpoints, type EndpointDefinition, serverPath, toValidationDetails } from '@vsf/contract';
// `msw/core/http` rather than `msw`: the package's root also loads its WebSocket support, whose broadcast
// channel keeps a Deno process from ever exiting. Plain `Response`s are what msw's resolvers return anyway.
import type { RequestHandler } from 'msw';
import { http } from 'msw/core/http';
import { RESOURCES } from './contract-resources.js';
import { handleRequest, type MockAnswer } from './handle-request.js';
import { Clock, type MockClock } from './mock-clock.js';
import { errorBody, MockHttpError } from './mock-errors.js';
import { DEFAULT_TEAM, KeyRing, type MockKeys } from './mock-keys.js';
import { type MockRecord, MockStore, type TeamData } from './mock-store.js';
import { seedTeamDefaults } from './special-operations.js';
import { defaultsOf } from './standard-operations.js';

export interface MockApiOptions {
  /** Keys by name: the scopes of each, or `{ scopes, team, expiresAt, revoked }`. `api.keys.<name>` is its token. */
  readonly keys: MockKeys;
  /** The API root the client calls, with `/api/v1`; default the SDK's, `http://localhost:3000/api/v1`. */
  readonly baseUrl?: string | undefined;
}

/** What `failNext` makes the next requests do instead of reaching the mock's records. */
export type InjectedFailure =
  | { readonly status: number; readonly retryAfter?: number | undefined; readonly delayMs?: number | undefined }
  | { readonly networkError: true; readonly delayMs?: number | undefined }
  | { readonly delayMs: number };

/** A request the mock received, in order, whatever it answered. */
export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  /** The path from the server root: `/api/v1/cars`. */
  readonly path: string;
  /** The contract operation it was routed to; undefined for a path the API does not have. */
  readonly operationId: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body as sent (parsed), or its text when it is not JSON. */
  readonly body: unknown;
  /** The status answered; undefined for an injected network error. */
  status: number | undefined;
}

export interface MockApi {
  /** For `setupServer(...api.handlers)` (msw/node) or `setupWorker(...api.handlers)` (msw/browser). */
  readonly handlers: RequestHandler[];
  /** The token of each declared key: pass it as the SDK's `apiKey`. */
  readonly keys: Readonly<Record<string, string>>;
  readonly clock: MockClock;
  /**
   * Stores records as if created by the API (defaults filled, events recorded), in the team of `options.team`
   * (default `default`); returns them as `GET` shows them. Each is checked against the record's schema.
   */
  seed(resource: string, records: readonly Record<string, unknown>[], options?: { team?: string }): MockRecord[];
  /** The records of a resource in a team, as `GET` shows them. */
  records(resource: string, options?: { team?: string }): MockRecord[];
  /** The next `count` requests fail as described (a status with its ApiError body, a network error, a delay). */
  failNext(count: number, failure: InjectedFailure): void;
  /** Every request received so far, oldest first. */
  requests(): ReceivedRequest[];
  /** Turns a team's API off (its keys get 403 `API is disabled for this team`) or on again. */
  setApiEnabled(enabled: boolean, team?: string): void;
  /** Revokes a key: from the next request on it gets 401 `API key revoked`. */
  revokeKey(name: string): void;
}

const INJECTED_CODES: Record<number, string> = {
  400: 'validation_error',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  429: 'rate_limited',
};

const json = (answer: MockAnswer) =>
  new Response(JSON.stringify(answer.body), {
    status: answer.status,
    // The announced extensions the mock implements (the SDK reads them); never binary-upload: no bytes kept.
    headers: { 'Content-Type': 'application/json', 'Vsf-Extensions': 'events', ...answer.headers },
  });

const errorAnswer = (error: MockHttpError): MockAnswer => ({
  status: error.status,
  body: errorBody(error),
  // A 501 is the mock's own answer, not a server having a bad moment: retrying it changes nothing.
  headers: { ...error.headers, ...(error.status === 501 ? { 'Retry-After': '0' } : {}) },
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A stateful mock of the team API for tests, generated from the contract: msw handlers for every operation,
 * backed by in-memory records per team, answering as the reference server does (see README.md).
 */
export function createMockApi(options: MockApiOptions): MockApi {
  if (!options || typeof options.keys !== 'object' || options.keys === null) {
    throw new TypeError('createMockApi({ keys: { <name>: [<scopes>] } }): declare at least one key');
  }
  const clock = new Clock();
  const store = new MockStore(clock);
  const keyRing = new KeyRing(options.keys, clock.now());
  const seeded = new Set<string>();
  const team = (name: string): TeamData => {
    const data = store.team(name);
    if (!seeded.has(name)) {
      seeded.add(name);
      seedTeamDefaults({ store, team: data });
    }
    return data;
  };
  const state = { store, keys: keyRing, team };
  const failures: InjectedFailure[] = [];
  const received: ReceivedRequest[] = [];

  const baseUrl = (options.baseUrl ?? 'http://localhost:3000/api/v1').replace(/\/+$/, '');
  const root = baseUrl.replace(/\/api\/v1$/, '');
  if (root === baseUrl) throw new TypeError(`createMockApi: baseUrl must end with /api/v1 (got ${baseUrl})`);

  const respond = async (
    endpoint: EndpointDefinition | undefined,
    request: Request,
    params: Record<string, string>,
  ) => {
    const url = new URL(request.url);
    const text = await request.clone().text();
    let body: unknown = text === '' ? undefined : text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {}
    const entry: ReceivedRequest = {
      method: request.method,
      url: request.url,
      path: url.pathname,
      operationId: endpoint?.operationId,
      headers: Object.fromEntries(request.headers),
      body,
      status: undefined,
    };
    received.push(entry);
    const failure = failures.shift();
    if (failure?.delayMs) await sleep(failure.delayMs);
    if (failure && 'networkError' in failure) return Response.error();
    let answer: MockAnswer;
    if (failure && 'status' in failure) {
      const code = INJECTED_CODES[failure.status] ?? (failure.status >= 500 ? 'internal_error' : 'validation_error');
      answer = {
        status: failure.status,
        body: { error: `Failure injected by failNext (${failure.status})`, code, details: null },
        headers:
          failure.status === 429 || failure.retryAfter !== undefined
            ? { 'Retry-After': String(failure.retryAfter ?? 1) }
            : {},
      };
    } else if (!endpoint) {
      answer = errorAnswer(
        new MockHttpError(404, 'not_found', `No route for ${request.method} ${url.pathname}; see /api/v1/openapi.json`),
      );
    } else {
      try {
        answer = await handleRequest(state, endpoint, request, params);
      } catch (error) {
        if (!(error instanceof MockHttpError)) throw error;
        answer = errorAnswer(error);
      }
    }
    entry.status = answer.status;
    return json(answer);
  };

  const endpoints = (Object.values(apiEndpoints) as EndpointDefinition[]).filter((e) => e.surface === 'v1');
  // Fixed paths before parameterised ones, as Express matches them (`/cars/{carId}` must not take `/auth/key`).
  const handlers: RequestHandler[] = endpoints.map((endpoint) =>
    http[endpoint.method](`${root}${serverPath(endpoint).replace(/\{(\w+)\}/g, ':$1')}`, ({ request, params }) =>
      respond(endpoint, request, params as Record<string, string>),
    ),
  );
  handlers.push(http.all(`${root}/api/*`, ({ request }) => respond(undefined, request, {})));

  const tokenOf = Object.fromEntries([...keyRing.byName].map(([name, key]) => [name, key.token]));
  return {
    handlers,
    keys: tokenOf,
    clock,
    seed(namespace, records, { team: teamName = DEFAULT_TEAM } = {}) {
      const resource = store.resource(namespace);
      const schema = (resource.endpoints.get ?? resource.endpoints.list)?.response.schema;
      return records.map((given, index) => {
        const ctxTeam = team(teamName);
        const record = store.insert(ctxTeam, namespace, { ...defaultsOf(namespace), ...given });
        const wrapped = resource.endpoints.get ? { data: record } : { data: [record], page: 1, limit: 1, total: 1 };
        const checked = schema?.safeParse(wrapped);
        if (checked && !checked.success) {
          store.remove(ctxTeam, namespace, record.id);
          const problems = toValidationDetails(checked.error).map(
            (d) => `${d.path.replace(/^data\.(0\.)?/, '')}: ${d.message}`,
          );
          throw new TypeError(
            `seed('${namespace}'): record ${index} is not a ${resource.label}: ${problems.join('; ')}`,
          );
        }
        return structuredClone(record);
      });
    },
    records(namespace, { team: teamName = DEFAULT_TEAM } = {}) {
      store.resource(namespace);
      return [...team(teamName).table(namespace).values()].map((r) => structuredClone(r));
    },
    failNext(count, failure) {
      if (!Number.isInteger(count) || count < 1)
        throw new RangeError(`failNext(count): a whole number >= 1 (got ${count})`);
      for (let i = 0; i < count; i++) failures.push(failure);
    },
    requests: () => [...received],
    setApiEnabled(enabled, teamName = DEFAULT_TEAM) {
      if (enabled) keyRing.disabledTeams.delete(teamName);
      else keyRing.disabledTeams.add(teamName);
    },
    revokeKey(name) {
      keyRing.key(name).revoked = true;
    },
  };
}

/** Resources a test may seed, by namespace (`cars`, `parking.spots`, `cars.events`). */
export const MOCK_RESOURCES: readonly string[] = [...RESOURCES.keys()];
