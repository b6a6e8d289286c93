import type { EndpointBodyInput, EndpointDefinition, EndpointQueryInput, EndpointResponse } from '@vsf/contract';
import type { APIPromise } from './api-promise.js';
import type { PagePromise } from './page.js';

/** What a single-record method resolves to: the `data` of the response. */
export type DataOf<E extends EndpointDefinition> =
  EndpointResponse<E> extends { data: infer D } ? D : EndpointResponse<E>;

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
