import type { EndpointBody, EndpointDefinition, EndpointParams, EndpointQuery, EndpointResponse } from '@vsf/contract';
import type { Request, Response } from 'express';
import type { AuthContext } from '../services/auth-service.js';
import type { Services } from '../services/index.js';

export interface HandlerContext<E extends EndpointDefinition> {
  params: EndpointParams<E>;
  query: EndpointQuery<E>;
  body: EndpointBody<E>;
  /** The calling key; present on every `/api/v1` endpoint. */
  auth: E['surface'] extends 'v1' ? AuthContext : undefined;
  services: Services;
  req: Request;
  res: Response;
}

/** What a handler of a non-JSON endpoint (`response.contentType`) returns: the bytes and their headers. */
export interface BinaryBody {
  bytes: Uint8Array;
  /** `Content-Type` at least; the binder adds `Content-Length`. */
  headers: Record<string, string>;
}

/** Returns the success body; status, validation, auth and errors are the binder's job. */
export type Handler<E extends EndpointDefinition> = (
  ctx: HandlerContext<E>,
) => Promise<E['response'] extends { contentType: string } ? BinaryBody : EndpointResponse<E>>;

/** One handler per declared endpoint. */
export type HandlerMap<Es extends Record<string, EndpointDefinition>> = { [K in keyof Es]: Handler<Es[K]> };

/**
 * The hand-written handlers of an area: its special operations and the standard ones that behave
 * differently; standard-handlers.ts derives the rest, and binding fails at start if any is missing.
 */
export type SpecialHandlers<Es extends Record<string, EndpointDefinition>> = Partial<HandlerMap<Es>>;

/** The list envelope for a page of records. */
export function listBody<R>(query: { page: number; limit: number }, result: { records: R[]; total: number }) {
  return { data: result.records, page: query.page, limit: query.limit, total: result.total };
}
