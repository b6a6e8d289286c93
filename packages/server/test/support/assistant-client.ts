import { type OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

/** What a browser keeps between the connector's pages: the cookie jar of one origin. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = (pair ?? '').split('=');
      if (name) this.cookies.set(name.trim(), value.join('='));
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** The hidden and checkbox fields of the page's form, as a browser would submit them. */
export function formFields(html: string): { action: string; hidden: Record<string, string>; scopes: string[] } {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? '';
  const hidden: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    hidden[m[1] as string] = m[2] as string;
  const scopes = [...html.matchAll(/<input type="checkbox" name="scope" value="([^"]+)"/g)].map((m) => m[1] as string);
  return { action, hidden, scopes };
}

export interface Member {
  email: string;
  password: string;
}

export interface SignInOptions {
  /** Scopes to leave ticked on the consent page; every offered one when absent. */
  tick?: (offered: string[]) => string[];
  decision?: 'allow' | 'deny';
}

/**
 * A person at a browser: opens the authorization URL, signs in on the form and answers the consent form,
 * all over plain HTTP (the pages need no JavaScript). Returns where the server redirected the browser.
 */
export async function signInAtBrowser(authorizationUrl: URL, member: Member, options: SignInOptions = {}) {
  const jar = new CookieJar();
  const open = await fetch(authorizationUrl, { redirect: 'manual' });
  jar.take(open);
  const signInPage = await open.text();
  if (open.status !== 200) throw new Error(`authorization page: ${open.status} ${signInPage}`);
  const signInForm = formFields(signInPage);
  const post = async (action: string, fields: [string, string][]) => {
    const res = await fetch(new URL(action, authorizationUrl), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
      body: new URLSearchParams(fields).toString(),
    });
    jar.take(res);
    return res;
  };
  const consentRes = await post(signInForm.action, [
    ...Object.entries(signInForm.hidden),
    ['email', member.email],
    ['password', member.password],
  ]);
  const consentPage = await consentRes.text();
  if (consentRes.status !== 200) return { status: consentRes.status, page: consentPage, location: undefined };
  const consent = formFields(consentPage);
  const ticked = options.tick ? options.tick(consent.scopes) : consent.scopes;
  const done = await post(consent.action, [
    ...Object.entries(consent.hidden),
    ...ticked.map((s): [string, string] => ['scope', s]),
    ['decision', options.decision ?? 'allow'],
  ]);
  const location = done.headers.get('location');
  const page = location ? consentPage : await done.text();
  return { status: done.status, page, location: location ? new URL(location) : undefined };
}

/** The client side of OAuth, kept in memory: what a desktop assistant stores in its settings. */
export class MemoryOAuthProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  constructor(
    readonly redirectUrl = 'http://127.0.0.1:8976/callback',
    readonly scope?: string,
  ) {}
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Test Assistant',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.scope ? { scope: this.scope } : {}),
    };
  }
  state() {
    return 'state-xyz';
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/**
 * The official MCP client through the whole flow: discovery, registration, PKCE, the sign-in and consent
 * forms, the token; returns a connected client and its provider (which holds the tokens).
 */
export async function connectAssistant(
  origin: string,
  member: Member,
  options: SignInOptions & { scope?: string } = {},
) {
  const provider = new MemoryOAuthProvider(undefined, options.scope);
  const mcpUrl = new URL('/mcp', origin);
  const first = new Client({ name: 'test-assistant', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  await first.connect(transport).then(
    () => {
      throw new Error('connected without signing in');
    },
    (error: Error) => {
      if (!(error instanceof UnauthorizedError)) throw error;
    },
  );
  if (!provider.authorizationUrl) throw new Error('no authorization URL');
  const answer = await signInAtBrowser(provider.authorizationUrl, member, options);
  const code = answer.location?.searchParams.get('code');
  if (!code)
    throw new Error(
      `no code: ${answer.status} ${answer.location ?? answer.page.replace(/[\s\S]*<main>/, '').slice(0, 400)}`,
    );
  await transport.finishAuth(code);
  const client = new Client({ name: 'test-assistant', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  return { client, provider, answer };
}
