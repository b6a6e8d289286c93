import type { z } from 'zod';
import type { ServerExtension } from './extensions.js';
import type { Scope } from './scopes.js';

export type HttpMethod = 'get' | 'post' | 'patch' | 'delete';

/**
 * Which API an endpoint belongs to, and so how it authenticates:
 * `v1` — a team API key under `/api/v1`; `admin` — the admin token under `/admin/v1`; `public` — none.
 */
export type ApiSurface = 'v1' | 'admin' | 'public';

export const API_BASE_PATHS: Record<ApiSurface, string> = {
  v1: '/api/v1',
  admin: '/admin/v1',
  public: '',
};

/** `all` must every one be granted; of `any`, at least one. The first missing one is named in the 403. */
export interface ScopeRequirement {
  readonly all: readonly Scope[];
  readonly any?: readonly Scope[];
}

/**
 * A body field that changes a resource besides the endpoint's own (a car's `parkingSpotId` takes and frees
 * spots), and so needs that resource's scopes too: a key without them gets 403 `Missing scope: …` before
 * anything is read or stored. The server enforces exactly these declarations, the OpenAPI description
 * lists them and the scope matrix probes each one.
 */
export interface FieldScope {
  readonly field: string;
  /** Only these values need the scopes; without it any value the field is sent with does, `null` included. */
  readonly values?: readonly (string | number | boolean)[];
  readonly scopes: ScopeRequirement;
  /** What sending it changes, for the docs: `places or frees the car in a parking spot or zone`. */
  readonly effect: string;
  /**
   * Values that only free what the record holds (a `pick_up`, a `null` spot): with one of them the scopes
   * are needed only while the record `holds` something to free (the spec: `write:parking` "when a spot or
   * zone is assigned"). The server checks it once it has read the record, before it writes anything.
   */
  readonly whenHeld?: { readonly values: readonly (string | number | boolean | null)[]; readonly holds: string };
}

export interface EndpointDefinition {
  /** Stable, unique operation id (also the OpenAPI operationId). */
  readonly operationId: string;
  readonly surface: ApiSurface;
  readonly method: HttpMethod;
  /** Path relative to the surface's base, OpenAPI style: `/cars/{carId}`. */
  readonly path: string;
  /**
   * The base `path` is relative to when it is not the surface's: `/api` for `/api/media/{mediaId}`, which
   * answers to the same team keys as `/api/v1` but lives beside it (DESIGN.md).
   */
  readonly basePath?: string;
  readonly summary: string;
  readonly description?: string;
  readonly scopes: ScopeRequirement;
  /** Where the SDK puts the method: `client.<namespace...>.<method>()`. */
  readonly sdk: { readonly namespace: readonly string[]; readonly method: string };
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  readonly response: {
    readonly status: 200 | 201;
    readonly description: string;
    readonly schema: z.ZodType;
    /**
     * Set when the success body is not JSON but bytes of this media type (`image/*`): the server streams
     * them with their own `Content-Type`, and the SDK hands back the raw `Response`, as openai-node does for files.
     */
    readonly contentType?: string;
  };
  /** The response is the list shape and can be paged with `page`/`limit`. */
  readonly paginated?: boolean;
  /** Name used in `<Resource> not found` for this endpoint's path ids. */
  readonly resourceName?: string;
  /** Body fields that change other resources and the extra scopes they need. */
  readonly fieldScopes?: readonly FieldScope[];
  /**
   * Body fields holding the id of another of the team's records, each named as the path parameter of that
   * record kind (`customerId`, `parkingSpotId`): an id of another team's record is refused (400 naming the
   * field) like an unknown one. The tenant-isolation suites probe each.
   */
  readonly references?: readonly string[];
  /**
   * The announced `binary-upload` extension: instead of the JSON body, the image's bytes with an
   * `image/*` `Content-Type`, the body's other fields in this query. Streamed, 3 MiB at most.
   */
  readonly binaryUpload?: { readonly query: z.ZodObject };
  /**
   * The whole endpoint is an announced extension, not part of the published spec: a client calls it only
   * after a response named the extension in `Vsf-Extensions`.
   */
  readonly extension?: ServerExtension;
  /** Status codes (besides the auth and validation ones every endpoint has) this endpoint can answer. */
  readonly errors?: readonly (404 | 409 | 410 | 413 | 415)[];
  /**
   * A delete refused (409) while other records still refer to the record: the message the server sends,
   * which names the way out (`set isActive to false instead`).
   */
  readonly inUse?: string;
}

/**
 * Every status an endpoint can answer with an `ApiError`: the declared `errors` plus those the server's
 * shared machinery produces for it — 400/401/403/500 always; 404 for a path id (a malformed one is
 * answered as unknown); 409 for a team-key POST (an `Idempotency-Key` reused with another body, or still
 * in flight); 413 for any JSON body over the size limit; 415 for a body in an unsupported `Content-Encoding` or charset; 429 for team keys (per-key rate limit).
 */
export function errorStatuses(endpoint: EndpointDefinition): number[] {
  const statuses = new Set<number>([400, 401, 403, 500, ...(endpoint.errors ?? [])]);
  if (pathParamNames(endpoint.path).length > 0) statuses.add(404);
  if (acceptsIdempotencyKey(endpoint)) statuses.add(409);
  if (endpoint.body) {
    statuses.add(408);
    statuses.add(413);
    statuses.add(415);
  }
  if (endpoint.surface === 'v1') statuses.add(429);
  return [...statuses].sort((a, b) => a - b);
}

/** The field scope declarations a parsed body triggers: the field is present with a value they cover. */
export function triggeredFieldScopes(endpoint: EndpointDefinition, body: unknown): FieldScope[] {
  if (!endpoint.fieldScopes || !body || typeof body !== 'object') return [];
  const fields = body as Record<string, unknown>;
  return endpoint.fieldScopes.filter((rule) => {
    if (!Object.hasOwn(fields, rule.field) || fields[rule.field] === undefined) return false;
    const value = fields[rule.field];
    return !rule.values || (rule.values as readonly unknown[]).includes(value);
  });
}

/**
 * Whether the body sent the rule's field with one of its `whenHeld` values, so that its scopes wait until
 * the record is read (and are needed only if it holds what the value frees).
 */
export function waitsForRecord(rule: FieldScope, body: unknown): boolean {
  if (!rule.whenHeld || !body || typeof body !== 'object') return false;
  return rule.whenHeld.values.includes((body as Record<string, unknown>)[rule.field] as string);
}

/** Whether the server honours an `Idempotency-Key` on the endpoint (every team-key POST), so a retry is safe. */
export function acceptsIdempotencyKey(endpoint: Pick<EndpointDefinition, 'surface' | 'method'>): boolean {
  return endpoint.surface === 'v1' && endpoint.method === 'post';
}

/** Keeps the literal types of a declaration so the server and SDK infer exact params, query, body and result. */
export function defineEndpoint<const T extends EndpointDefinition>(definition: T): T {
  return definition;
}

type InputOf<S> = S extends z.ZodType ? z.input<S> : undefined;
type OutputOf<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a caller sends. */
export type EndpointParamsInput<E extends EndpointDefinition> = InputOf<E['params']>;
export type EndpointQueryInput<E extends EndpointDefinition> = InputOf<E['query']>;
export type EndpointBodyInput<E extends EndpointDefinition> = InputOf<E['body']>;
/** What a handler receives after validation. */
export type EndpointParams<E extends EndpointDefinition> = OutputOf<E['params']>;
export type EndpointQuery<E extends EndpointDefinition> = OutputOf<E['query']>;
export type EndpointBody<E extends EndpointDefinition> = OutputOf<E['body']>;
/** The success body on the wire (`{data: …}` or the list shape). */
export type EndpointResponse<E extends EndpointDefinition> = z.output<E['response']['schema']>;

/** The endpoint's path on the server, from the root: `/api/v1/cars/{carId}`, `/api/media/{mediaId}`. */
export function serverPath(endpoint: Pick<EndpointDefinition, 'surface' | 'basePath' | 'path'>): string {
  return `${endpoint.basePath ?? API_BASE_PATHS[endpoint.surface]}${endpoint.path}`;
}

/** Express-style path (`/cars/:carId`) for a contract path (`/cars/{carId}`). */
export function toExpressPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** Names of the path parameters, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
}
