import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import {
  InvalidGrantError,
  InvalidScopeError,
  InvalidTargetError,
  InvalidTokenError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type {
  OAuthClientInformationFull,
  OAuthTokenRevocationRequest,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { ALL_SCOPES, ASSISTANT_SCOPES } from '@vsf/contract';
import type { Response } from 'express';
import type { Knex } from 'knex';
import { ApiHttpError } from '../errors/api-http-error.js';
import { oauthRepository, type PendingAuthorization } from '../repositories/oauth-repository.js';
import type { Services } from '../services/index.js';
import { type ConnectorUrls, sameResource } from './connector-urls.js';
import { newSecret, secretHash } from './oauth-secrets.js';
import { renderSignIn } from './sign-in-pages.js';

export interface OAuthLifetimes {
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
  codeSeconds: number;
  signInSeconds: number;
}

/** An hour for access tokens (the issue's default), 30 days of disuse for a refresh token, a minute for a code. */
export const DEFAULT_OAUTH_LIFETIMES: OAuthLifetimes = {
  accessTokenSeconds: 3600,
  refreshTokenSeconds: 30 * 24 * 3600,
  codeSeconds: 60,
  signInSeconds: 10 * 60,
};

export interface OAuthProviderDeps {
  db: Knex;
  now: () => Date;
  services: Services;
  urls: ConnectorUrls;
  lifetimes: OAuthLifetimes;
}

const later = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000);

/**
 * The scopes an authorization asks for: every one an assistant may hold when it names none (the member
 * picks at consent), and an unknown one refused (RFC 6749's invalid_scope), never silently dropped.
 */
function requestedScopes(scopes: readonly string[] | undefined): string[] {
  const asked = (scopes ?? []).filter((s) => s !== '');
  if (asked.length === 0) return [...ASSISTANT_SCOPES];
  const unknown = asked.filter((s) => !(ALL_SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) throw new InvalidScopeError(`Unknown scope: ${unknown.join(' ')}`);
  return [...new Set(asked)];
}

/**
 * The OAuth 2.1 authorization server behind the MCP SDK's router (`mcpAuthRouter`): the SDK parses and
 * answers the protocol (metadata, registration, authorize, token with PKCE S256, revocation); this class
 * keeps clients, grants, codes and tokens in the database (hashed), so every instance serves every step.
 */
export class VsfOAuthProvider implements OAuthServerProvider {
  constructor(private readonly deps: OAuthProviderDeps) {}

  get clientsStore(): OAuthRegisteredClientsStore {
    const { db, now } = this.deps;
    return {
      getClient: (clientId) => oauthRepository.getClient(db, clientId),
      registerClient: async (client) => {
        const full = client as OAuthClientInformationFull;
        await oauthRepository.insertClient(db, full, now());
        return full;
      },
    };
  }

  /** Starts a sign-in: the request is stored (any instance may get the form back) and the form is shown. */
  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    if (params.resource && !sameResource(params.resource, this.deps.urls.resource)) {
      throw new InvalidTargetError(`This server issues tokens only for ${this.deps.urls.resource.href}`);
    }
    const pending: PendingAuthorization = {
      clientId: client.client_id,
      redirectUri: params.redirectUri,
      scopes: requestedScopes(params.scopes),
      codeChallenge: params.codeChallenge,
      state: params.state,
      resource: this.deps.urls.resource.href,
    };
    const requestId = newSecret('request');
    const csrfToken = newSecret('request');
    const now = this.deps.now();
    await oauthRepository.insertRequest(
      this.deps.db,
      {
        idHash: secretHash(requestId),
        params: pending,
        csrfToken,
        expiresAt: later(now, this.deps.lifetimes.signInSeconds),
      },
      now,
    );
    renderSignIn(res, { requestId, csrfToken, clientName: client.client_name ?? client.client_id });
  }

  async challengeForAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<string> {
    const row = await oauthRepository.findCode(this.deps.db, secretHash(code));
    if (!row || row.client_id !== client.client_id) throw new InvalidGrantError('Unknown authorization code');
    return row.code_challenge;
  }

  /**
   * A code is used once: a second use revokes the grant and every token the first use gave (RFC 6749
   * §4.1.2, as OAuth 2.1 asks), since one of the two presenters stole it.
   */
  async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    _verifier?: string,
    redirectUri?: string,
    resource?: URL,
  ): Promise<OAuthTokens> {
    const now = this.deps.now();
    const claim = await oauthRepository.claimCode(this.deps.db, secretHash(code), now);
    if (!claim) throw new InvalidGrantError('Unknown authorization code');
    const grant = await oauthRepository.grantForExchange(this.deps.db, claim.row.grant_id);
    if (!grant || grant.clientId !== client.client_id) throw new InvalidGrantError('Unknown authorization code');
    if (claim.reused) {
      await this.deps.services.members.endGrant(grant.id);
      throw new InvalidGrantError('Authorization code already used; the tokens it gave are revoked');
    }
    if (new Date(claim.row.expires_at) <= now) throw new InvalidGrantError('Authorization code expired');
    if (redirectUri !== undefined && redirectUri !== claim.row.redirect_uri) {
      throw new InvalidGrantError('redirect_uri differs from the authorization request');
    }
    if (resource && !sameResource(resource, this.deps.urls.resource)) {
      throw new InvalidTargetError(`This server issues tokens only for ${this.deps.urls.resource.href}`);
    }
    if (grant.revoked) throw new InvalidGrantError('The grant was revoked');
    return this.issueTokens(grant.id, grant.scopes, now);
  }

  /** Refresh tokens rotate on every use; one used twice revokes the whole grant (OAuth 2.1 §4.3.1). */
  async exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
    scopes?: string[],
    resource?: URL,
  ): Promise<OAuthTokens> {
    const now = this.deps.now();
    const claim = await oauthRepository.claimRefreshToken(this.deps.db, secretHash(refreshToken), now);
    if (claim?.row.kind !== 'refresh') throw new InvalidGrantError('Unknown refresh token');
    const grant = await oauthRepository.grantForExchange(this.deps.db, claim.row.grant_id);
    if (!grant || grant.clientId !== client.client_id) throw new InvalidGrantError('Unknown refresh token');
    if (claim.reused) {
      await this.deps.services.members.endGrant(grant.id);
      throw new InvalidGrantError('Refresh token already used; the grant is revoked, sign in again');
    }
    if (grant.revoked) throw new InvalidGrantError('The grant was revoked; sign in again');
    if (new Date(claim.row.expires_at) <= now) throw new InvalidGrantError('Refresh token expired; sign in again');
    if (resource && !sameResource(resource, this.deps.urls.resource)) {
      throw new InvalidTargetError(`This server issues tokens only for ${this.deps.urls.resource.href}`);
    }
    const granted = new Set(grant.scopes);
    const beyond = (scopes ?? []).filter((s) => !granted.has(s));
    if (beyond.length > 0) throw new InvalidScopeError(`Not in the grant: ${beyond.join(' ')}`);
    return this.issueTokens(grant.id, grant.scopes, now);
  }

  private async issueTokens(grantId: string, scopes: string[], now: Date): Promise<OAuthTokens> {
    const { accessTokenSeconds, refreshTokenSeconds } = this.deps.lifetimes;
    const access = newSecret('access');
    const refresh = newSecret('refresh');
    await oauthRepository.insertTokens(
      this.deps.db,
      grantId,
      [
        { hash: secretHash(access), kind: 'access', expiresAt: later(now, accessTokenSeconds) },
        { hash: secretHash(refresh), kind: 'refresh', expiresAt: later(now, refreshTokenSeconds) },
      ],
      now,
    );
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: accessTokenSeconds,
      refresh_token: refresh,
      scope: scopes.join(' '),
    };
  }

  /** For the SDK's bearer middleware; `/mcp` itself checks tokens through the API's own authentication. */
  async verifyAccessToken(token: string): Promise<AuthInfo> {
    try {
      const auth = await this.deps.services.auth.authenticate(token, { connector: true });
      return {
        token,
        clientId: auth.keyName,
        scopes: [...auth.scopes],
        ...(auth.expiresAt ? { expiresAt: Math.floor(Date.parse(auth.expiresAt) / 1000) } : {}),
        resource: this.deps.urls.resource,
      };
    } catch (error) {
      if (error instanceof ApiHttpError) throw new InvalidTokenError(error.message);
      throw error;
    }
  }

  /**
   * RFC 7009: revoking either token of a grant ends the grant, so the assistant is signed out everywhere.
   * A token of another client, or an unknown one, changes nothing and is not an error.
   */
  async revokeToken(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    const owner = await oauthRepository.tokenGrant(this.deps.db, secretHash(request.token));
    if (owner && owner.clientId === client.client_id) {
      await this.deps.services.members.endGrant(owner.grantId);
    }
  }
}
