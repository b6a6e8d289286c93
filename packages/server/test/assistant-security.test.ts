import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/index.js';
import { type Member, signInAtBrowser } from './support/assistant-client.js';
import { listTools, oauthFlow, pkcePair, REDIRECT_URI } from './support/oauth-flow.js';

let server: TestServer;
let flow: ReturnType<typeof oauthFlow>;
beforeAll(async () => {
  server = await startTestServer();
  flow = oauthFlow(server.origin);
});
afterAll(() => server?.close());

async function memberOf(scopes: string[], teamId?: string): Promise<Member & { teamId: string; id: string }> {
  const team = teamId ?? (await server.createTeam()).id;
  const member = { email: `p-${Math.random().toString(36).slice(2)}@example.com`, password: 'correct horse battery' };
  const res = await server.admin('POST', `/teams/${team}/members`, { ...member, scopes });
  expect(res.status).toBe(201);
  return { ...member, teamId: team, id: ((await res.json()) as { data: { id: string } }).data.id };
}

/** A new member's authorization code for a client (a newly registered one unless `clientId` names one), not yet exchanged. */
async function issuedCode(
  scopes: string[],
  options: { scope?: string; tick?: (s: string[]) => string[]; clientId?: string } = {},
) {
  const { clientId: registered, ...signIn } = options;
  const member = await memberOf(scopes);
  const clientId = registered ?? (await flow.register());
  const { verifier, challenge } = pkcePair();
  const { code } = await flow.code(clientId, member, challenge, signIn);
  return { member, clientId, code, verifier };
}

/** A member signed in through the whole flow: the client id, the verifier and the tokens. */
async function signedIn(scopes: string[], options: { scope?: string; tick?: (s: string[]) => string[] } = {}) {
  const issued = await issuedCode(scopes, options);
  const tokens = await flow.tokens(issued.clientId, issued.code, issued.verifier);
  expect(tokens.status).toBe(200);
  return { ...issued, tokens: tokens.body };
}

/** A revoked grant's tokens: the access token is refused at /mcp, the refresh token at /token. */
async function expectGrantRevoked(clientId: string, tokens: Record<string, unknown>) {
  expect((await flow.mcp(tokens.access_token as string, listTools)).status).toBe(401);
  expect((await flow.refresh(clientId, tokens.refresh_token as string)).status).toBe(400);
}

const toolNames = async (token: string) => {
  const res = await flow.mcp(token, listTools);
  expect(res.status).toBe(200);
  return ((await res.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
};

describe('assistant connector security', () => {
  it('refuses an authorization without PKCE or with `plain`, back at the client with an error', async () => {
    const clientId = await flow.register();
    for (const params of [{}, { code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' }]) {
      const res = await fetch(flow.authorizeUrl(clientId, params), { redirect: 'manual' });
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get('location') ?? '');
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('code')).toBeNull();
    }
  });

  it('refuses a wrong code verifier', async () => {
    const { clientId, code } = await issuedCode(['read:cars']);
    const res = await flow.tokens(clientId, code, pkcePair().verifier);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  it('answers a redirect URI that differs by one character itself, never redirecting there', async () => {
    const clientId = await flow.register();
    for (const redirect of [
      'http://127.0.0.1:8977/callback',
      'http://127.0.0.1:8976/callbacK',
      'https://evil.example/cb',
    ]) {
      const url = flow.authorizeUrl(clientId, { code_challenge: pkcePair().challenge, redirect_uri: redirect });
      const res = await fetch(url, { redirect: 'manual' });
      expect(res.status, redirect).toBe(400);
      expect(res.headers.get('location')).toBeNull();
    }
  });

  it('echoes `state` only as a parameter of the registered URI (no open redirect through it)', async () => {
    const member = await memberOf(['read:cars']);
    const clientId = await flow.register();
    const url = flow.authorizeUrl(clientId, {
      code_challenge: pkcePair().challenge,
      state: 'https://evil.example/?a=1&b',
    });
    const answer = await signInAtBrowser(url, member);
    expect(answer.status).toBe(302);
    expect(`${answer.location?.origin}${answer.location?.pathname}`).toBe(REDIRECT_URI);
    expect(answer.location?.searchParams.get('state')).toBe('https://evil.example/?a=1&b');
  });

  it('revokes what a code gave when the code is used twice', async () => {
    const { clientId, code, verifier, tokens } = await signedIn(['read:cars']);
    expect(await toolNames(tokens.access_token as string)).toContain('list_cars');
    const second = await flow.tokens(clientId, code, verifier);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('invalid_grant');
    await expectGrantRevoked(clientId, tokens);
  });

  it('refuses an expired code', async () => {
    const { clientId, code, verifier } = await issuedCode(['read:cars']);
    await server.db('oauth_codes').update({ expires_at: new Date(Date.now() - 1000) });
    const res = await flow.tokens(clientId, code, verifier);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  it('issues tokens only for its own /mcp (RFC 8707)', async () => {
    const clientId = await flow.register();
    const res = await fetch(
      flow.authorizeUrl(clientId, { code_challenge: pkcePair().challenge, resource: 'https://other.example/mcp' }),
      { redirect: 'manual' },
    );
    expect(new URL(res.headers.get('location') ?? '').searchParams.get('error')).toBe('invalid_target');
    const { code, verifier } = await issuedCode(['read:cars'], { clientId });
    const exchange = await flow.token({
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT_URI,
      resource: 'https://other.example/mcp',
    });
    expect(exchange.status).toBe(400);
    expect(((await exchange.json()) as { error: string }).error).toBe('invalid_target');
  });

  it('rotates refresh tokens, and a reused one revokes the whole grant', async () => {
    const { clientId, tokens } = await signedIn(['read:cars']);
    const first = await flow.refresh(clientId, tokens.refresh_token as string);
    const rotated = (await first.json()) as Record<string, string>;
    expect(first.status).toBe(200);
    expect(await toolNames(rotated.access_token as string)).toContain('list_cars');
    const reuse = await flow.refresh(clientId, tokens.refresh_token as string);
    expect(reuse.status).toBe(400);
    await expectGrantRevoked(clientId, rotated);
  });

  it('refuses sign-in and consent forms without their CSRF token or cookie', async () => {
    const member = await memberOf(['read:cars']);
    const clientId = await flow.register();
    const page = await fetch(flow.authorizeUrl(clientId, { code_challenge: pkcePair().challenge }));
    const html = await page.text();
    const request = /name="request" value="([^"]+)"/.exec(html)?.[1] as string;
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1] as string;
    const cookie = (page.headers.getSetCookie()[0] ?? '').split(';')[0] as string;
    const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
      fetch(`${server.origin}/oauth/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(fields).toString(),
      });
    const creds = { request, email: member.email, password: member.password };
    expect((await post(creds, { cookie })).status).toBe(403);
    expect((await post({ ...creds, csrf_token: csrf })).status).toBe(403);
    expect((await post({ ...creds, csrf_token: `${csrf}x` }, { cookie })).status).toBe(403);
    // The consent form of a real sign-in, posted without its token (a cross-site form): no code.
    const signIn = await post({ ...creds, csrf_token: csrf }, { cookie });
    expect(signIn.status).toBe(200);
    const consent = await fetch(`${server.origin}/oauth/consent`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ request, scope: 'read:cars', decision: 'allow' }).toString(),
    });
    expect(consent.status).toBe(403);
    expect(consent.headers.get('location')).toBeNull();
  });

  it('never grants a scope the member may not grant, whatever the consent form claims', async () => {
    const { tokens } = await signedIn(['read:cars'], {
      scope: 'read:cars write:cars read:customers',
      tick: (offered) => {
        expect(offered).toEqual(['read:cars']);
        return [...offered, 'write:cars', 'read:customers'];
      },
    });
    expect(tokens.scope).toBe('read:cars');
    const names = await toolNames(tokens.access_token as string);
    expect(names).toContain('list_cars');
    expect(names).not.toContain('create_car');
    expect(names).not.toContain('list_customers');
  });

  it('grants only what was left ticked', async () => {
    const { tokens } = await signedIn(['read:cars', 'write:cars', 'read:customers'], {
      tick: (offered) => offered.filter((s) => s !== 'read:customers'),
    });
    expect(tokens.scope).toBe('read:cars write:cars');
  });

  it('shuts out a deleted member, a revoked grant, a narrowed member and a team whose API is off, on the next request', async () => {
    const deleted = await signedIn(['read:cars']);
    await server.admin('DELETE', `/teams/${deleted.member.teamId}/members/${deleted.member.id}`);
    expect((await flow.mcp(deleted.tokens.access_token, listTools)).status).toBe(401);

    const revoked = await signedIn(['read:cars']);
    const grants = (await (await server.admin('GET', `/teams/${revoked.member.teamId}/grants`)).json()) as {
      data: { id: string; memberEmail: string; scopes: string[] }[];
    };
    expect(grants.data[0]).toMatchObject({ memberEmail: revoked.member.email, scopes: ['read:cars'] });
    await server.admin('POST', `/teams/${revoked.member.teamId}/grants/${grants.data[0]?.id}/revoke`);
    const refused = await flow.mcp(revoked.tokens.access_token, listTools);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: 'API key revoked' });

    const narrowed = await signedIn(['read:cars', 'read:customers']);
    expect(await toolNames(narrowed.tokens.access_token as string)).toContain('list_customers');
    await server.admin('PATCH', `/teams/${narrowed.member.teamId}/members/${narrowed.member.id}`, {
      scopes: ['read:cars'],
    });
    expect(await toolNames(narrowed.tokens.access_token as string)).not.toContain('list_customers');

    const off = await signedIn(['read:cars']);
    await server.admin('PATCH', `/teams/${off.member.teamId}`, { apiEnabled: false });
    const disabled = await flow.mcp(off.tokens.access_token, listTools);
    expect(disabled.status).toBe(403);
    expect(await disabled.json()).toMatchObject({ error: 'API is disabled for this team', code: 'forbidden' });
    await server.admin('PATCH', `/teams/${off.member.teamId}`, { apiEnabled: true });
    expect((await flow.mcp(off.tokens.access_token, listTools)).status).toBe(200);
  });

  it('answers an expired access token 401 API key expired, and its refresh token gets a new one', async () => {
    const { clientId, tokens } = await signedIn(['read:cars']);
    await server
      .db('oauth_tokens')
      .where({ kind: 'access' })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const expired = await flow.mcp(tokens.access_token, listTools);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(await expired.json()).toMatchObject({ error: 'API key expired' });
    const refreshed = await flow.refresh(clientId, tokens.refresh_token as string);
    const fresh = (await refreshed.json()) as { access_token: string; expires_in: number };
    expect(fresh.expires_in).toBe(3600);
    expect(await toolNames(fresh.access_token)).toContain('list_cars');
  });

  it('a new password ends the member’s grants', async () => {
    const { member, tokens } = await signedIn(['read:cars']);
    await server.admin('PATCH', `/teams/${member.teamId}/members/${member.id}`, { password: 'another long password' });
    expect((await flow.mcp(tokens.access_token, listTools)).status).toBe(401);
  });

  it('keeps tokens and keys to their own doors', async () => {
    const { tokens } = await signedIn(['read:cars']);
    const rest = await fetch(`${server.baseUrl}/cars`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(rest.status).toBe(401);
    const { key } = await server.createTeamWithKey(['read:cars']);
    const mcp = await flow.mcp(key, listTools);
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get('www-authenticate')).toContain('resource_metadata=');
  });

  it('answers /mcp without a token with the challenge that leads to sign-in (RFC 9728)', async () => {
    const res = await flow.mcp(undefined, listTools);
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate') ?? '';
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1] as string;
    expect(metadataUrl).toBe(`${server.origin}/.well-known/oauth-protected-resource/mcp`);
    const metadata = (await (await fetch(metadataUrl)).json()) as { resource: string; authorization_servers: string[] };
    expect(metadata.resource).toBe(`${server.origin}/mcp`);
    const bare = (await (await fetch(`${server.origin}/.well-known/oauth-protected-resource`)).json()) as {
      resource: string;
    };
    expect(bare.resource).toBe(metadata.resource);
    const as = (await (await fetch(`${server.origin}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    expect(as).toMatchObject({ code_challenge_methods_supported: ['S256'], response_types_supported: ['code'] });
    expect(as.grant_types_supported).not.toContain('password');
  });

  it('refuses requests whose Host or Origin name another site (DNS rebinding)', async () => {
    const { tokens } = await signedIn(['read:cars']);
    // fetch cannot set Host (a forbidden header): a raw request, as a browser misled by DNS would send it.
    const post = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify(listTools);
        const req = httpRequest(`${server.origin}/mcp`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${tokens.access_token}`,
            'content-length': String(Buffer.byteLength(body)),
            ...headers,
          },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end(body);
      });
    for (const headers of [
      { host: 'evil.example' },
      { origin: 'http://evil.example' },
      { host: 'evil.example:80', origin: 'http://evil.example' },
    ]) {
      expect(await post(headers), JSON.stringify(headers)).toBe(403);
    }
    expect(await post({ host: 'localhost:1234', origin: 'http://localhost:1234' })).toBe(200);
  });
});

describe('sign-in brute force', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ rateLimit: { failedAuthPoints: 3 } });
  });
  afterAll(() => limited?.close());

  it('answers 429 once an address is over the failed sign-in limit, even to the right password', async () => {
    const team = await limited.createTeam();
    const member = { email: `b-${Math.random().toString(36).slice(2)}@example.com`, password: 'correct horse battery' };
    await limited.admin('POST', `/teams/${team.id}/members`, { ...member, scopes: ['read:cars'] });
    const local = oauthFlow(limited.origin);
    const clientId = await local.register();
    const url = () => local.authorizeUrl(clientId, { code_challenge: pkcePair().challenge });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await signInAtBrowser(url(), { ...member, password: 'wrong password!' })).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const right = await signInAtBrowser(url(), member);
    expect(right.status).toBe(429);
  });
});

describe('members and grants in the admin API', () => {
  let admin: TestServer;
  beforeAll(async () => {
    admin = await startTestServer();
  });
  afterAll(() => admin?.close());

  it('lists members as any list: paging, ids and updatedAfter; refuses a taken email with 409', async () => {
    const team = await admin.createTeam();
    const create = (email: string) =>
      admin.admin('POST', `/teams/${team.id}/members`, {
        email,
        password: 'correct horse battery',
        scopes: ['read:cars'],
      });
    // Emails are unique across teams, and a PostgreSQL run shares its database with earlier runs.
    const tag = Math.random().toString(36).slice(2, 10);
    const first = (await (await create(`One-${tag}@Example.com`)).json()) as { data: { id: string; email: string } };
    expect(first.data.email).toBe(`one-${tag}@example.com`);
    const taken = await create(`one-${tag}@example.com`);
    expect(taken.status).toBe(409);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const since = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = (await (await create(`two-${tag}@example.com`)).json()) as { data: { id: string } };
    const list = async (query: string) =>
      (await (await admin.admin('GET', `/teams/${team.id}/members?${query}`)).json()) as {
        data: { id: string; password?: unknown; passwordHash?: unknown }[];
        total: number;
      };
    const all = await list('limit=1');
    expect(all.total).toBe(2);
    expect(all.data).toHaveLength(1);
    expect(JSON.stringify(all)).not.toMatch(/password|scrypt/);
    expect((await list(`updatedAfter=${encodeURIComponent(since)}`)).data.map((m) => m.id)).toEqual([second.data.id]);
    expect((await list(`ids=${first.data.id}`)).data.map((m) => m.id)).toEqual([first.data.id]);
    const bad = await admin.admin('POST', `/teams/${team.id}/members`, {
      email: 'x@example.com',
      password: 'short',
      scopes: [],
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).not.toContain('short');
  });

  it('never lets a member grant webhook scopes: an endpoint acts with an API key', async () => {
    const team = await admin.createTeam();
    const res = await admin.admin('POST', `/teams/${team.id}/members`, {
      email: `w-${Math.random().toString(36).slice(2)}@example.com`,
      password: 'correct horse battery',
      scopes: ['read:cars', 'write:webhooks'],
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'validation_error',
      details: [expect.objectContaining({ message: expect.stringContaining('Webhook scopes cannot be granted') })],
    });
    const metadata = (await (await fetch(`${admin.origin}/.well-known/oauth-authorization-server`)).json()) as {
      scopes_supported: string[];
    };
    expect(metadata.scopes_supported).toContain('write:cars');
    expect(metadata.scopes_supported.filter((s) => s.endsWith(':webhooks'))).toEqual([]);
  });
});
