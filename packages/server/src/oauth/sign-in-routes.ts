import { randomUUID } from 'node:crypto';
import express, { type Request, type Response, Router } from 'express';
import type { Knex } from 'knex';
import { ApiHttpError } from '../errors/api-http-error.js';
import { clientAddress } from '../http/request-guard.js';
import { decoyPasswordHash, verifyPassword } from '../keys/password-hash.js';
import type { KeyRateLimiter } from '../rate-limit/key-rate-limiter.js';
import { oauthRepository, type SignInRequest } from '../repositories/oauth-repository.js';
import {
  type MemberCredentials,
  memberCredentialsById,
  teamMembersRepository,
} from '../repositories/team-members-repository.js';
import type { ConnectorUrls } from './connector-urls.js';
import type { OAuthLifetimes } from './oauth-provider.js';
import { newSecret, secretHash } from './oauth-secrets.js';
import { CSRF_COOKIE, renderConsent, renderProblem, renderSignIn } from './sign-in-pages.js';

export interface SignInDeps {
  db: Knex;
  now: () => Date;
  urls: () => ConnectorUrls;
  limiter: KeyRateLimiter | undefined;
  lifetimes: OAuthLifetimes;
}

type Form = Record<string, string | string[] | undefined>;
const text = (value: string | string[] | undefined) => (typeof value === 'string' ? value : '');
const list = (value: string | string[] | undefined) =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/**
 * The sign-in in progress a form belongs to, when the form is genuine: the request is alive, and its
 * CSRF token is both in the form and in the cookie set with the page (a cross-site post carries neither).
 */
async function formRequest(
  req: Request,
  res: Response,
  deps: SignInDeps,
): Promise<{ id: string; request: SignInRequest } | undefined> {
  const form = req.body as Form;
  const id = text(form.request);
  const request = id ? await oauthRepository.findRequest(deps.db, secretHash(id), deps.now()) : undefined;
  if (!request) {
    renderProblem(res, 400, 'This sign-in has expired or was already used.');
    return undefined;
  }
  const token = text(form.csrf_token);
  if (!token || token !== request.csrfToken || cookieOf(req, CSRF_COOKIE) !== token) {
    renderProblem(res, 403, 'The form could not be verified (missing or wrong CSRF token). Cookies must be on.');
    return undefined;
  }
  return { id, request };
}

/** The refusal while an address is over its failed sign-in limit, as a page with `Retry-After`. */
function tooMany(res: Response, error: ApiHttpError): void {
  res.set(error.headers);
  renderProblem(
    res,
    429,
    `Too many failed sign-ins from your address; try again in ${error.headers['Retry-After']} s.`,
  );
}

async function checkPassword(
  deps: SignInDeps,
  email: string,
  password: string,
): Promise<MemberCredentials | undefined> {
  const credentials = await teamMembersRepository.credentialsByEmail(deps.db, email);
  // An unknown email costs a hash too, so timing does not tell which emails are members.
  const matches = await verifyPassword(password, credentials?.passwordHash ?? (await decoyPasswordHash()));
  return credentials && matches ? credentials : undefined;
}

async function signIn(req: Request, res: Response, deps: SignInDeps): Promise<void> {
  const found = await formRequest(req, res, deps);
  if (!found) return;
  const { id, request } = found;
  const client = await oauthRepository.getClient(deps.db, request.params.clientId);
  const clientName = client?.client_name ?? request.params.clientId;
  const form = req.body as Form;
  const email = text(form.email).trim().toLowerCase();
  const address = clientAddress(req);
  try {
    // Over the limit, the answer is 429 whatever is presented: no right guess gets through then.
    deps.limiter?.refuseBlockedAddress(address);
    const credentials = await checkPassword(deps, email, text(form.password));
    if (!credentials) {
      await deps.limiter?.countFailedAuth(address, res);
      renderSignIn(
        res,
        { requestId: id, csrfToken: request.csrfToken, clientName, email, error: 'Wrong email or password.' },
        401,
      );
      return;
    }
    if (!credentials.teamApiEnabled) {
      renderProblem(res, 403, 'API is disabled for this team');
      return;
    }
    const csrfToken = newSecret('request');
    await oauthRepository.signedIn(deps.db, secretHash(id), credentials.member.id, csrfToken);
    const may = new Set(credentials.member.scopes);
    renderConsent(res, {
      requestId: id,
      csrfToken,
      clientName,
      redirectHost: new URL(request.params.redirectUri).host,
      email: credentials.member.email,
      offered: request.params.scopes.filter((s) => may.has(s)),
      withheld: request.params.scopes.filter((s) => !may.has(s)),
    });
  } catch (error) {
    if (error instanceof ApiHttpError && error.status === 429) tooMany(res, error);
    else throw error;
  }
}

function redirectBack(res: Response, request: SignInRequest, issuer: URL, values: Record<string, string>): void {
  const target = new URL(request.params.redirectUri);
  for (const [key, value] of Object.entries(values)) target.searchParams.set(key, value);
  if (request.params.state !== undefined) target.searchParams.set('state', request.params.state);
  // RFC 9207: names the issuer, so a client talking to several servers can tell which one answered.
  target.searchParams.set('iss', issuer.href.replace(/\/$/, ''));
  res.set('Cache-Control', 'no-store').redirect(302, target.href);
}

async function consent(req: Request, res: Response, deps: SignInDeps): Promise<void> {
  const found = await formRequest(req, res, deps);
  if (!found) return;
  const { id, request } = found;
  const credentials = request.memberId ? await memberCredentialsById(deps.db, request.memberId) : undefined;
  if (!credentials) {
    renderProblem(res, 400, 'Sign in first.');
    return;
  }
  // Only what was asked for and what the member may grant, whatever else the form claims.
  const may = new Set(credentials.member.scopes);
  const offered = new Set(request.params.scopes.filter((s) => may.has(s)));
  const form = req.body as Form;
  const granted = [...new Set(list(form.scope))].filter((s) => offered.has(s)).sort();
  // One answer per sign-in: a second submission (a double click, a replay) finds it ended.
  if (!(await oauthRepository.endRequest(deps.db, secretHash(id)))) {
    renderProblem(res, 400, 'This sign-in has expired or was already used.');
    return;
  }
  const urls = deps.urls();
  if (text(form.decision) !== 'allow' || granted.length === 0) {
    redirectBack(res, request, urls.issuer, {
      error: 'access_denied',
      error_description: 'The member did not allow access',
    });
    return;
  }
  const now = deps.now();
  const grantId = randomUUID();
  const code = newSecret('code');
  await deps.db.transaction(async (trx) => {
    await oauthRepository.insertGrant(
      trx,
      {
        id: grantId,
        teamId: credentials.member.teamId,
        memberId: credentials.member.id,
        clientId: request.params.clientId,
        scopes: granted,
        resource: request.params.resource,
      },
      now,
    );
    await oauthRepository.insertCode(
      trx,
      {
        codeHash: secretHash(code),
        grantId,
        codeChallenge: request.params.codeChallenge,
        redirectUri: request.params.redirectUri,
        expiresAt: new Date(now.getTime() + deps.lifetimes.codeSeconds * 1000),
      },
      now,
    );
  });
  redirectBack(res, request, urls.issuer, { code });
}

/**
 * `/oauth/sign-in` and `/oauth/consent`: plain HTML forms posted without JavaScript. A form's fields are
 * few and short; a body over 16 KiB is not one of ours.
 */
export function signInRoutes(deps: SignInDeps): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 64 });
  router.post('/sign-in', form, (req, res) => signIn(req, res, deps));
  router.post('/consent', form, (req, res) => consent(req, res, deps));
  return router;
}
