import express from 'express';

/** Express's `trust proxy` setting: which proxies may name the client (`X-Forwarded-For`) for `req.ip`. */
export type TrustProxy = boolean | number | string;

/**
 * Reads `VSF_TRUST_PROXY` with Express's `trust proxy` semantics: unset or `false` trusts no forwarding
 * header (the socket address is the client), `true` trusts every hop, a number trusts that many hops,
 * and anything else is a comma-separated list of addresses, subnets or `loopback`/`linklocal`/`uniquelocal`.
 */
export function trustProxyFromEnv(value: string | undefined): TrustProxy {
  const raw = value?.trim();
  if (!raw || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  try {
    // Express compiles the list when it is set: an unknown name or a bad subnet fails here, at start.
    express().set('trust proxy', raw);
  } catch (error) {
    throw new Error(
      `VSF_TRUST_PROXY must be true, false, a hop count, or addresses/subnets/loopback/linklocal/uniquelocal separated by commas: ${(error as Error).message}`,
    );
  }
  return raw;
}
