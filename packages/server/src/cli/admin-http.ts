import { MAX_PAGE_SIZE } from '@vsf/contract';

/** Talks to a running server's admin API: PGlite is single-process, so the CLI never opens the database itself. */
export interface AdminTarget {
  url: string;
  token: string;
}

export function adminTarget(options: { url?: string; token?: string }): AdminTarget {
  const token = options.token ?? process.env.VSF_ADMIN_TOKEN;
  if (!token) {
    throw new Error(
      'No admin token: pass --admin-token or set VSF_ADMIN_TOKEN (the server must run with the same value)',
    );
  }
  const url = options.url ?? process.env.VSF_ADMIN_URL ?? `http://localhost:${process.env.PORT ?? 3000}/admin/v1`;
  return { url: url.replace(/\/$/, ''), token };
}

export async function adminRequest<T>(target: AdminTarget, method: string, path: string, body?: unknown): Promise<T> {
  return (await adminResponse<{ data: T }>(target, method, path, body)).data;
}

/** Every record of a paginated admin list (`{ data, page, limit, total }`), walking its pages in order. */
export async function adminList<T>(target: AdminTarget, path: string): Promise<T[]> {
  const records: T[] = [];
  for (let page = 1; ; page += 1) {
    const separator = path.includes('?') ? '&' : '?';
    const body = await adminResponse<{ data: T[]; total: number }>(
      target,
      'GET',
      `${path}${separator}page=${page}&limit=${MAX_PAGE_SIZE}`,
    );
    records.push(...body.data);
    if (body.data.length === 0 || records.length >= body.total) return records;
  }
}

async function adminResponse<T>(target: AdminTarget, method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${target.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${target.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  } catch (error) {
    throw new Error(
      `Cannot reach the server at ${target.url} (${(error as Error).message}); is \`vsf-server start\` running?`,
    );
  }
  const json = (await res.json().catch(() => ({}))) as { error?: string; details?: unknown };
  if (!res.ok) {
    const details = json.details ? ` ${JSON.stringify(json.details)}` : '';
    throw new Error(`${method} ${path} failed with ${res.status}: ${json.error ?? res.statusText}${details}`);
  }
  return json as T;
}
