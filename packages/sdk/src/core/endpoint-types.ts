import type { APIPromise } from './api-promise.js';
import type { PagePromise } from './page.js';

export type HttpMethod = 'get' | 'post' | 'patch' | 'delete';

/** The types of one operation, generated from the contract: what `client.request(route, …)` checks and returns. */
export interface RouteTypes {
  /** Relative to the client's base URL, OpenAPI style: `/cars/{carId}`. */
  path: string;
  paginated: boolean;
  query: object | undefined;
  body: unknown;
  /** What the call resolves to: the record (the item of a page when paginated), the whole body, or a `Response`. */
  result: unknown;
}

declare const types: unique symbol;

/**
 * What the SDK needs at run time to call an endpoint: plain data generated from the contract, so loading the
 * SDK loads no schema. Its types ride along as `T`, so `client.request(route, …)` is typed like the method.
 */
export interface Route<T extends RouteTypes = RouteTypes> {
  readonly operationId: string;
  readonly method: HttpMethod;
  /** Relative to the client's base URL, OpenAPI style: `/cars/{carId}`. */
  readonly path: T['path'];
  /** The response is a page of a list (`data`, `page`, `limit`, `total`). */
  readonly paginated: T['paginated'];
  /** The server honours an `Idempotency-Key` on it, so a retry never runs it twice. */
  readonly idempotent: boolean;
  /** Set when the route lives beside the client's base (`/api` for `/api/media/{mediaId}`). */
  readonly basePath?: string;
  /** Set when the response is bytes: the call resolves to the raw `Response`. */
  readonly binary?: true;
  /** Set when the response carries more than `data` (`nextCursor`): the call resolves to the whole body. */
  readonly envelope?: true;
  /** Type only, never present at run time. */
  readonly [types]?: T;
}

/** The least `client.request()` needs: a generated `Route`, or plain route data of your own. */
export interface RouteLike {
  readonly operationId: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly paginated?: boolean | undefined;
  readonly basePath?: string | undefined;
  readonly binary?: boolean | undefined;
  readonly envelope?: boolean | undefined;
}

/** The generated types of a route. */
export type TypesOf<R> = R extends Route<infer T> ? T : never;

/** Names of the `{placeholders}` of a path, as a union. */
export type PathParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParamNames<Rest>
  : never;

type ParamsArg<P extends string> = string extends P
  ? { params?: Record<string, string> | undefined }
  : [PathParamNames<P>] extends [never]
    ? { params?: undefined }
    : { params: Record<PathParamNames<P>, string> };

/** `client.request()`'s second argument for a route: its path params, query and body. */
export type RequestArgsFor<T extends RouteTypes> = ParamsArg<T['path']> & {
  query?: T['query'] | undefined;
  body?: T['body'] | undefined;
};

/** What `client.request(route)` resolves to: a `Page` for a paginated route, else the result. */
export type EndpointPromise<T extends RouteTypes> = T['paginated'] extends true
  ? PagePromise<T['result']>
  : APIPromise<T['result']>;
