import type { EndpointDefinition } from '@vsf/contract';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The path an idempotency record is kept under: the matched contract route with its validated params,
 * never the raw request path. Express matches paths case-insensitively and ignores a trailing slash, so
 * `/api/v1/locations`, `/API/V1/Locations` and `/api/v1/LOCATIONS/` are one route and must be one key;
 * ids are compared as PostgreSQL compares uuids, without case.
 *
 * For the canonical spelling (lowercase, no trailing slash, lowercase ids: what the SDK sends) this is
 * the raw path that was stored before, so records written by earlier versions still replay.
 */
export function idempotencyRoutePath(
  prefix: string,
  endpoint: EndpointDefinition,
  params: Record<string, unknown> | undefined,
): string {
  const path = endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = String(params?.[name] ?? '');
    return encodeURIComponent(UUID.test(value) ? value.toLowerCase() : value);
  });
  return `${prefix}${path}`;
}
