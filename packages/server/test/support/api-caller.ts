import { ApiError } from '@vsf/contract';

/** A minimal raw HTTP caller for server tests: they assert on the wire, not through the SDK. */
export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

// Tests read response bodies loosely; each assertion states the shape it expects.
// biome-ignore lint/suspicious/noExplicitAny: see above
export type ApiCaller = <T = any>(
  method: string,
  path: string,
  options?: { body?: unknown; rawBody?: string; query?: Record<string, string>; headers?: Record<string, string> },
) => Promise<ApiResponse<T>>;

export function apiCaller(baseUrl: string, key?: string): ApiCaller {
  return async (method, path, options = {}) => {
    // A path from the server's root (`serverPath(endpoint)`: `/api/v1/…`, `/api/media/…`) is taken as it is.
    const url = /^\/(api|admin)\//.test(path) ? new URL(path, baseUrl) : new URL(`${baseUrl}${path}`);
    for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = { ...(key ? { authorization: `Bearer ${key}` } : {}), ...options.headers };
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(url, { method: method.toUpperCase(), headers, ...(body !== undefined ? { body } : {}) });
    const bytes = new Uint8Array(await res.arrayBuffer());
    // Bytes (`GET /api/media/…`) stay bytes; everything else the API sends is JSON.
    if (!/json/.test(res.headers.get('content-type') ?? 'json'))
      return { status: res.status, headers: res.headers, body: bytes };
    const text = new TextDecoder().decode(bytes);
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };
}

/** ApiError shape check used by every negative test. */
/** The body matches the contract's `ApiError` (so the OpenAPI document describes it), code and details included. */
export function isApiError(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return ApiError.safeParse(body).success && typeof b.code === 'string' && 'details' in b;
}
