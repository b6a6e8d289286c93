/** The headers every request of a client starts from, for JSON answers and for bytes. */
export interface BaseHeaders {
  json: Readonly<Record<string, string>>;
  binary: Readonly<Record<string, string>>;
}

/**
 * Built once per client, not per call: a call without headers of its own and without an idempotency key
 * sends one of these objects as is (frozen, since `fetch` only reads it). The order decides who wins, as
 * before: the client's `headers` over the defaults, the credential over both, a call's `headers` over all.
 */
export function baseHeaders(
  userAgent: string,
  defaults: Record<string, string>,
  auth: Record<string, string>,
): BaseHeaders {
  const withAccept = (accept: string) => Object.freeze({ accept, 'user-agent': userAgent, ...defaults, ...auth });
  return { json: withAccept('application/json'), binary: withAccept('*/*') };
}
