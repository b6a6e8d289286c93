import type { Request } from 'express';

/** The key from `Authorization: Bearer <key>` or, equivalently, `x-api-key`. */
export function presentedApiKey(req: Request): string | undefined {
  return bearerToken(req) ?? (req.get('x-api-key')?.trim() || undefined);
}

export function bearerToken(req: Request): string | undefined {
  const header = req.get('authorization');
  const match = header ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
  return match?.[1]?.trim() || undefined;
}
