/** The connector's addresses, from the server's public origin (`VSF_PUBLIC_URL`, else where it listens). */
export interface ConnectorUrls {
  /** The authorization server's issuer: the public origin. */
  issuer: URL;
  /** The protected resource tokens are bound to (RFC 8707): `<origin>/mcp`. */
  resource: URL;
  /** RFC 9728's metadata of that resource, named in every 401 from `/mcp`. */
  resourceMetadata: URL;
}

export const MCP_PATH = '/mcp';

export function connectorUrls(publicUrl: string): ConnectorUrls {
  const origin = new URL(publicUrl).origin;
  return {
    issuer: new URL(`${origin}/`),
    resource: new URL(`${origin}${MCP_PATH}`),
    resourceMetadata: new URL(`${origin}/.well-known/oauth-protected-resource${MCP_PATH}`),
  };
}

/** RFC 8707 compares resources as URLs: the same origin and path, with or without a trailing slash. */
export function sameResource(a: string | URL, b: URL): boolean {
  try {
    const left = new URL(String(a));
    return (
      left.origin === b.origin && left.pathname.replace(/\/$/, '') === b.pathname.replace(/\/$/, '') && !left.search
    );
  } catch {
    return false;
  }
}
