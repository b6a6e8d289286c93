import { firstMissingScope, type ScopeRequirement } from '@vsf/contract';
import { forbidden, unauthorized } from '../errors/api-http-error.js';
import { parseApiKey, secretMatches } from '../keys/api-key-format.js';
import { CredentialsLoader } from '../keys/credentials-loader.js';
import { LastUseStamps } from '../keys/last-use-stamps.js';
import { isAccessToken, secretHash } from '../oauth/oauth-secrets.js';
import type { KeyCredentials } from '../repositories/api-keys-repository.js';
import { type AccessTokenCredentials, oauthRepository } from '../repositories/oauth-repository.js';
import type { ServiceDeps } from './service-deps.js';

/** How stale `api_keys.last_used_at` may get: one write a minute per key at most. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export interface AuthContext {
  teamId: string;
  keyId: string;
  keyName: string;
  prefix: string;
  scopes: ReadonlySet<string>;
  expiresAt: string | null;
  createdAt: string;
  /** `grant` when the credential is an assistant's access token (the connector), `key` for an API key. */
  kind: 'key' | 'grant';
  /** A grant's resource (RFC 8707): the connector it was issued for. */
  resource?: string;
}

/** Where a credential was presented: only the assistant connector takes OAuth access tokens. */
export interface PresentedAt {
  connector: boolean;
}

/**
 * The checks after a credential is known, keys and access tokens alike, in the documented order: not
 * revoked → not expired → team API enabled.
 */
function checkUsable(
  credential: { revokedAt: string | null; expiresAt: string | null; teamApiEnabled: boolean },
  now: Date,
): void {
  if (credential.revokedAt) throw unauthorized('API key revoked');
  if (credential.expiresAt && new Date(credential.expiresAt) <= now) throw unauthorized('API key expired');
  if (!credential.teamApiEnabled) throw forbidden('API is disabled for this team');
}

/** Whether a use at `now` is to be written: last use is kept to the resolution, so not when it is fresh. */
const lastUseIsStale = (lastUsedAt: string | null, now: Date) =>
  !lastUsedAt || Date.parse(lastUsedAt) < now.getTime() - LAST_USED_RESOLUTION_MS;

export function requireScopes(auth: AuthContext, requirement: ScopeRequirement): void {
  const missing = firstMissingScope(auth.scopes, requirement);
  if (missing) throw forbidden(`Missing scope: ${missing}`);
}

export class AuthService {
  /** Keys' credentials, from the verified-key cache or read with the other keys missing at the same time. */
  private readonly loader: CredentialsLoader;
  /** Keys' last-use writes, in the background: one statement for the keys stamped within a gathering delay. */
  private readonly stamps: LastUseStamps;

  constructor(private readonly deps: ServiceDeps) {
    this.loader = new CredentialsLoader(deps.db, deps.keyCache);
    this.stamps = new LastUseStamps(deps.db, LAST_USED_RESOLUTION_MS, (error) =>
      deps.logger?.warn({ err: error }, 'a key’s last use could not be written'),
    );
  }

  /**
   * The key's row and its team's API switch, from the verified-key cache when it holds them. Everything
   * decided from them (secret, revocation, expiry, API switch) is still checked on every request.
   */
  private credentials(prefix: string): Promise<KeyCredentials | undefined> {
    return this.loader.load(prefix);
  }

  /**
   * Checks in the documented order: key present → known → not revoked → not expired → team API enabled.
   * Scopes are the endpoint's business and are checked after this.
   */
  async authenticate(presented: string | undefined, at: PresentedAt = { connector: false }): Promise<AuthContext> {
    if (!presented) throw unauthorized('API key required', { presented: false });
    if (isAccessToken(presented)) {
      // A token is bound to the connector (RFC 8707's resource): the REST API takes API keys only.
      if (!at.connector) throw unauthorized('Invalid API key: an OAuth access token works only at /mcp');
      return this.authenticateAccessToken(presented);
    }
    const parsed = parseApiKey(presented);
    if (!parsed) throw unauthorized('Invalid API key');
    const credentials = await this.credentials(parsed.prefix);
    if (!credentials || !secretMatches(parsed.secret, credentials.secretHash)) throw unauthorized('Invalid API key');
    const { key } = credentials;
    await this.admit({ ...key, teamApiEnabled: credentials.teamApiEnabled }, (now) => this.recordKeyUse(key, now));
    return {
      teamId: key.teamId,
      keyId: key.id,
      keyName: key.name,
      prefix: key.prefix,
      scopes: new Set(key.scopes),
      expiresAt: key.expiresAt,
      createdAt: key.createdAt,
      kind: 'key',
    };
  }

  /**
   * Refuses a known credential that is not usable now, then records its use. last_used_at is kept to the
   * minute: the write (a round trip on every request) is skipped when the row just read says it is fresh,
   * and the UPDATE re-checks, so concurrent requests still write once.
   */
  private async admit(
    credential: Parameters<typeof checkUsable>[0] & { lastUsedAt: string | null },
    recordUse: (now: Date) => Promise<void>,
  ): Promise<void> {
    const now = this.deps.now();
    checkUsable(credential, now);
    if (lastUseIsStale(credential.lastUsedAt, now)) await recordUse(now);
  }

  private async recordKeyUse(key: { id: string; prefix: string }, now: Date): Promise<void> {
    this.stamps.stamp(key.id, now);
    // The write notifies no instance (migration 033): each records its own stamps in its cache.
    this.deps.keyCache?.touch(key.prefix, now.toISOString());
  }

  /** Writes the keys' last uses still gathering (before the database closes). */
  flushLastUse(): Promise<void> {
    return this.stamps.flush();
  }

  private async recordGrantUse(grantId: string, now: Date): Promise<void> {
    await oauthRepository.touchGrant(this.deps.db, grantId, now, LAST_USED_RESOLUTION_MS);
    this.deps.keyCache?.touchGrant(grantId, now.toISOString());
  }

  /** A token's grant, member, team and client, from the verified-credential cache when it holds them. */
  private async tokenCredentials(tokenHash: string): Promise<AccessTokenCredentials | undefined> {
    const cache = this.deps.keyCache;
    const cached = cache?.getToken<AccessTokenCredentials>(tokenHash);
    if (cached) return cached;
    const generation = cache?.snapshot() ?? 0;
    const read = await oauthRepository.accessCredentials(this.deps.db, tokenHash);
    if (read && cache) cache.setToken(tokenHash, read, generation);
    return read;
  }

  /**
   * An assistant's access token, checked in the order keys are, with the spec's messages: known →
   * grant not revoked → token not expired → team API enabled. Cached as keys are, under the same
   * invalidation: a revoked grant, a deleted or re-scoped member and the team's API switch notify every
   * instance at commit (migration 032), so they act on the next request everywhere.
   */
  private async authenticateAccessToken(token: string): Promise<AuthContext> {
    const credentials = await this.tokenCredentials(secretHash(token));
    if (credentials?.kind !== 'access') throw unauthorized('Invalid API key');
    await this.admit(credentials, (now) => this.recordGrantUse(credentials.grantId, now));
    return {
      teamId: credentials.teamId,
      keyId: credentials.grantId,
      keyName: credentials.clientName,
      prefix: 'oauth',
      scopes: new Set(credentials.scopes),
      expiresAt: credentials.expiresAt,
      createdAt: credentials.createdAt,
      kind: 'grant',
      resource: credentials.resource,
    };
  }
}
