import type {
  EndpointBodyInput,
  EndpointDefinition,
  EndpointQueryInput,
  EndpointResponse,
  HttpMethod,
} from '@vsf/contract';
import type { APIPromise } from './api-promise.js';
import type { PagePromise } from './page.js';

declare const declaration: unique symbol;

/**
 * What the SDK needs at run time to call an endpoint: plain data generated from the contract's declaration
 * `E` (`apiEndpoints.listCars`), without its zod schemas, so loading the SDK loads no zod. The declaration
 * stays in the type, so `client.request(route, …)` is typed exactly like the generated method.
 */
export interface Route<E extends EndpointDefinition = EndpointDefinition> {
  readonly operationId: E['operationId'];
  readonly method: E['method'];
  /** Relative to the client's base URL, OpenAPI style: `/cars/{carId}`. */
  readonly path: E['path'];
  /** The response is a page of a list (`data`, `page`, `limit`, `total`). */
  readonly paginated: E extends { paginated: true } ? true : false;
  /** The server honours an `Idempotency-Key` on it, so a retry never runs it twice. */
  readonly idempotent: boolean;
  /** Set when the route lives beside the client's base (`/api` for `/api/media/{mediaId}`). */
  readonly basePath?: string;
  /** Set when the response is bytes: the call resolves to the raw `Response`. */
  readonly binary?: true;
  /** Set when the response carries more than `data` (`nextCursor`): the call resolves to the whole body. */
  readonly envelope?: true;
  /** Type only, never present at run time: the contract declaration this route was generated from. */
  readonly [declaration]?: E;
}

/** The least `client.request()` needs: a generated `Route`, or a declaration imported from `@vsf/contract`. */
export interface RouteLike {
  readonly operationId: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly paginated?: boolean | undefined;
  readonly basePath?: string | undefined;
  readonly binary?: boolean | undefined;
  readonly envelope?: boolean | undefined;
}

/** The contract declaration behind a route (or the declaration itself). */
export type DeclarationOf<R> = R extends EndpointDefinition ? R : R extends Route<infer E> ? E : never;

/**
 * What a single-record method resolves to: the `data` of the response, the whole body where it carries more
 * than `data` (a page of a list is a `Page` instead), or the raw `Response` for bytes.
 */
export type DataOf<E extends EndpointDefinition> = E['response'] extends { contentType: string }
  ? Response
  : EndpointResponse<E> extends { data: infer D }
    ? E extends { paginated: true }
      ? D
      : [Exclude<keyof EndpointResponse<E>, 'data'>] extends [never]
        ? D
        : EndpointResponse<E>
    : EndpointResponse<E>;

/** One record of a list endpoint. */
export type ListItem<E extends EndpointDefinition> = DataOf<E> extends readonly (infer I)[] ? I : never;

/** Names of the `{placeholders}` of a contract path, as a union. */
export type PathParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParamNames<Rest>
  : never;

type ParamsArg<E extends EndpointDefinition> = string extends E['path']
  ? { params?: Record<string, string> | undefined }
  : [PathParamNames<E['path']>] extends [never]
    ? { params?: undefined }
    : { params: Record<PathParamNames<E['path']>, string> };

/** `client.request()`'s second argument for endpoint `E`: its path params, query and body, typed by the contract. */
export type RequestArgsFor<E extends EndpointDefinition> = ParamsArg<E> & {
  query?: EndpointQueryInput<E> | undefined;
  body?: EndpointBodyInput<E> | undefined;
};

/** What `client.request(endpoint)` resolves to: a `Page` for a paginated endpoint, else the record. */
export type EndpointPromise<E extends EndpointDefinition> = E extends { paginated: true }
  ? PagePromise<ListItem<E>>
  : APIPromise<DataOf<E>>;
