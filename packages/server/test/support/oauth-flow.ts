import { createHash, randomBytes } from 'node:crypto';
import { type Member, type SignInOptions, signInAtBrowser } from './assistant-client.js';

export const REDIRECT_URI = 'http://127.0.0.1:8976/callback';

export const pkcePair = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** The protocol steps by hand, for tests that must send what no well-behaved client would. */
export function oauthFlow(origin: string) {
  const form = (path: string, fields: Record<string, string>) =>
    fetch(`${origin}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  return {
    async register(redirectUris: string[] = [REDIRECT_URI]): Promise<string> {
      const res = await fetch(`${origin}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'Probe', redirect_uris: redirectUris, token_endpoint_auth_method: 'none' }),
      });
      if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { client_id: string }).client_id;
    },
    authorizeUrl(clientId: string, params: Record<string, string | undefined>): URL {
      const url = new URL(`${origin}/authorize`);
      const all: Record<string, string | undefined> = {
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT_URI,
        code_challenge_method: 'S256',
        state: 'st-1',
        resource: `${origin}/mcp`,
        ...params,
      };
      for (const [k, v] of Object.entries(all)) if (v !== undefined) url.searchParams.set(k, v);
      return url;
    },
    /** Sign-in and consent through the forms; the code the browser was sent back with. */
    async code(clientId: string, member: Member, challenge: string, options: SignInOptions & { scope?: string } = {}) {
      const url = this.authorizeUrl(clientId, { code_challenge: challenge, scope: options.scope });
      const answer = await signInAtBrowser(url, member, options);
      const code = answer.location?.searchParams.get('code');
      if (!code) throw new Error(`no code: ${answer.status} ${answer.location}`);
      return { code, location: answer.location as URL };
    },
    token: (fields: Record<string, string>) => form('/token', fields),
    refresh: (clientId: string, refreshToken: string) =>
      form('/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken }),
    async tokens(clientId: string, code: string, verifier: string) {
      const res = await form('/token', {
        grant_type: 'authorization_code',
        client_id: clientId,
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT_URI,
        resource: `${origin}/mcp`,
      });
      return { status: res.status, body: (await res.json()) as Record<string, string> };
    },
    revoke: (clientId: string, token: string) => form('/revoke', { client_id: clientId, token }),
    /** A JSON-RPC request to /mcp with the token, as a client sends it. */
    mcp(token: string | undefined, message: unknown, headers: Record<string, string> = {}) {
      return fetch(`${origin}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
        body: JSON.stringify(message),
      });
    },
  };
}

export const listTools = { jsonrpc: '2.0', id: 1, method: 'tools/list' } as const;
