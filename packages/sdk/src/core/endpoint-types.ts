import type { EndpointDefinition, EndpointResponse } from '@vsf/contract';

/** What a single-record method resolves to: the `data` of the response. */
export type DataOf<E extends EndpointDefinition> =
  EndpointResponse<E> extends { data: infer D } ? D : EndpointResponse<E>;

/** One record of a list endpoint. */
export type ListItem<E extends EndpointDefinition> = DataOf<E> extends readonly (infer I)[] ? I : never;
