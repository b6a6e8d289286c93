import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { AdminGrant } from '@vsf/contract';
import { iso, jsonArray } from './row-values.js';
import { type AdminListQuery, adminPage } from './team-members-repository.js';
import type { Executor } from './team-scoped-table.js';

/** The authorization request a sign-in carries from the sign-in form to the consent form. */
export interface PendingAuthorization {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  codeChallenge: string;
  state?: string | undefined;
  resource: string;
}

export interface SignInRequest {
  params: PendingAuthorization;
  csrfToken: string;
  memberId: string | null;
}

/** What checking an access token needs, read in one query with its grant, member, team and client. */
export interface AccessTokenCredentials {
  kind: string;
  expiresAt: string;
  grantId: string;
  teamId: string;
  /** What the grant gave, narrowed by what the member may grant today. */
  scopes: string[];
  resource: string;
  revokedAt: string | null;
  teamApiEnabled: boolean;
  clientName: string;
  createdAt: string;
  lastUsedAt: string | null;
}

interface GrantRow {
  id: string;
  team_id: string;
  member_id: string;
  client_id: string;
  scopes: string[] | string;
  resource: string;
  last_used_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
  email: string;
  metadata: OAuthClientInformationFull | string;
}

const metadataOf = (value: OAuthClientInformationFull | string): OAuthClientInformationFull =>
  typeof value === 'string' ? (JSON.parse(value) as OAuthClientInformationFull) : value;

const clientNameOf = (metadata: OAuthClientInformationFull) => metadata.client_name ?? metadata.client_id;

function toGrant(row: GrantRow): AdminGrant {
  return {
    id: row.id,
    teamId: row.team_id,
    memberId: row.member_id,
    memberEmail: row.email,
    clientId: row.client_id,
    clientName: clientNameOf(metadataOf(row.metadata)),
    scopes: jsonArray(row.scopes),
    createdAt: new Date(row.created_at).toISOString(),
    lastUsedAt: iso(row.last_used_at),
    revokedAt: iso(row.revoked_at),
  };
}

const grantsWithNames = (db: Executor) =>
  db('oauth_grants')
    .join('team_members', 'team_members.id', 'oauth_grants.member_id')
    .join('oauth_clients', 'oauth_clients.client_id', 'oauth_grants.client_id')
    .select('oauth_grants.*', 'team_members.email', 'oauth_clients.metadata');

/** A single-use secret taken once: the row when this call took it, `reused` when another already had. */
type Claim<T> = { row: T; reused: false } | { row: T; reused: true } | undefined;

async function claimOnce<T>(db: Executor, table: string, column: string, hash: string, now: Date): Promise<Claim<T>> {
  const [taken] = await db(table).where(column, hash).whereNull('used_at').update({ used_at: now }).returning('*');
  if (taken) return { row: taken as T, reused: false };
  const existing = await db(table).where(column, hash).first();
  return existing ? { row: existing as T, reused: true } : undefined;
}

export interface ExchangedGrant {
  id: string;
  clientId: string;
  scopes: string[];
  revoked: boolean;
}

export interface CodeRow {
  code_hash: string;
  grant_id: string;
  code_challenge: string;
  redirect_uri: string;
  expires_at: Date;
  used_at: Date | null;
}

export interface TokenRow {
  token_hash: string;
  grant_id: string;
  kind: string;
  expires_at: Date;
  used_at: Date | null;
}

export const oauthRepository = {
  async getClient(db: Executor, clientId: string): Promise<OAuthClientInformationFull | undefined> {
    const row = await db('oauth_clients').where({ client_id: clientId }).first('metadata');
    return row ? metadataOf(row.metadata) : undefined;
  },

  async insertClient(db: Executor, client: OAuthClientInformationFull, now: Date): Promise<void> {
    await db('oauth_clients').insert({
      client_id: client.client_id,
      metadata: JSON.stringify(client),
      created_at: now,
      updated_at: now,
    });
  },

  async insertRequest(
    db: Executor,
    request: { idHash: string; params: PendingAuthorization; csrfToken: string; expiresAt: Date },
    now: Date,
  ): Promise<void> {
    await db('oauth_requests').insert({
      id_hash: request.idHash,
      client_id: request.params.clientId,
      params: JSON.stringify(request.params),
      csrf_token: request.csrfToken,
      expires_at: request.expiresAt,
      created_at: now,
    });
    // Abandoned sign-ins are cleared as new ones start: the table holds only the last few minutes' worth.
    await db('oauth_requests').where('expires_at', '<', now).delete();
  },

  async findRequest(db: Executor, idHash: string, now: Date): Promise<SignInRequest | undefined> {
    const row = await db('oauth_requests').where('id_hash', idHash).where('expires_at', '>', now).first();
    if (!row) return undefined;
    const params = typeof row.params === 'string' ? JSON.parse(row.params) : row.params;
    return { params, csrfToken: row.csrf_token, memberId: row.member_id };
  },

  /** The member signed in: the request moves on to consent, under a new CSRF token. */
  async signedIn(db: Executor, idHash: string, memberId: string, csrfToken: string): Promise<void> {
    await db('oauth_requests').where('id_hash', idHash).update({ member_id: memberId, csrf_token: csrfToken });
  },

  /** Ends a request; false when another submission already ended it (a double click, a replay). */
  async endRequest(db: Executor, idHash: string): Promise<boolean> {
    return (await db('oauth_requests').where('id_hash', idHash).delete().returning('id_hash')).length > 0;
  },

  async insertGrant(
    db: Executor,
    grant: { id: string; teamId: string; memberId: string; clientId: string; scopes: string[]; resource: string },
    now: Date,
  ): Promise<void> {
    await db('oauth_grants').insert({
      id: grant.id,
      team_id: grant.teamId,
      member_id: grant.memberId,
      client_id: grant.clientId,
      scopes: JSON.stringify(grant.scopes),
      resource: grant.resource,
      created_at: now,
      updated_at: now,
    });
  },

  async findGrant(db: Executor, teamId: string, id: string): Promise<AdminGrant | undefined> {
    const row: GrantRow | undefined = await grantsWithNames(db)
      .where({ 'oauth_grants.team_id': teamId, 'oauth_grants.id': id })
      .first();
    return row ? toGrant(row) : undefined;
  },

  pageGrants: (db: Executor, teamId: string, query: AdminListQuery) =>
    adminPage(
      db,
      'oauth_grants',
      teamId,
      query,
      (q) =>
        q.orderBy([
          { column: 'oauth_grants.created_at', order: 'desc' },
          { column: 'oauth_grants.id', order: 'desc' },
        ]),
      toGrant,
      grantsWithNames,
    ),

  /** Keeps the first revocation time; `teamId` absent only for the server's own revocations (token reuse). */
  async revokeGrant(db: Executor, id: string, now: Date, teamId?: string): Promise<void> {
    const query = db('oauth_grants').where({ id }).whereNull('revoked_at');
    if (teamId) query.where({ team_id: teamId });
    await query.update({ revoked_at: now, updated_at: now });
  },

  /** Every grant of a member ends (a new password): their assistants sign in again. */
  async revokeMemberGrants(db: Executor, teamId: string, memberId: string, now: Date): Promise<void> {
    await db('oauth_grants')
      .where({ team_id: teamId, member_id: memberId })
      .whereNull('revoked_at')
      .update({ revoked_at: now, updated_at: now });
  },

  async touchGrant(db: Executor, id: string, now: Date, resolutionMs: number): Promise<void> {
    await db('oauth_grants')
      .where({ id })
      .where((q) => q.whereNull('last_used_at').orWhere('last_used_at', '<', new Date(now.getTime() - resolutionMs)))
      .update({ last_used_at: now });
  },

  async insertCode(
    db: Executor,
    code: { codeHash: string; grantId: string; codeChallenge: string; redirectUri: string; expiresAt: Date },
    now: Date,
  ): Promise<void> {
    await db('oauth_codes').insert({
      code_hash: code.codeHash,
      grant_id: code.grantId,
      code_challenge: code.codeChallenge,
      redirect_uri: code.redirectUri,
      expires_at: code.expiresAt,
      created_at: now,
    });
  },

  async findCode(db: Executor, codeHash: string): Promise<(CodeRow & { client_id: string }) | undefined> {
    return db('oauth_codes')
      .join('oauth_grants', 'oauth_grants.id', 'oauth_codes.grant_id')
      .where('oauth_codes.code_hash', codeHash)
      .first('oauth_codes.*', 'oauth_grants.client_id');
  },

  claimCode: (db: Executor, codeHash: string, now: Date) =>
    claimOnce<CodeRow>(db, 'oauth_codes', 'code_hash', codeHash, now),

  claimRefreshToken: (db: Executor, tokenHash: string, now: Date) =>
    claimOnce<TokenRow>(db, 'oauth_tokens', 'token_hash', tokenHash, now),

  async insertTokens(
    db: Executor,
    grantId: string,
    tokens: { hash: string; kind: 'access' | 'refresh'; expiresAt: Date }[],
    now: Date,
  ): Promise<void> {
    await db('oauth_tokens').insert(
      tokens.map((t) => ({
        token_hash: t.hash,
        grant_id: grantId,
        kind: t.kind,
        expires_at: t.expiresAt,
        created_at: now,
      })),
    );
  },

  async tokenGrant(db: Executor, tokenHash: string): Promise<{ grantId: string; clientId: string } | undefined> {
    const row = await db('oauth_tokens')
      .join('oauth_grants', 'oauth_grants.id', 'oauth_tokens.grant_id')
      .where('oauth_tokens.token_hash', tokenHash)
      .first('oauth_grants.id', 'oauth_grants.client_id');
    return row ? { grantId: row.id, clientId: row.client_id } : undefined;
  },

  /** What a code or refresh token exchange checks of its grant, the scopes parsed. */
  async grantForExchange(db: Executor, grantId: string): Promise<ExchangedGrant | undefined> {
    const row = await db('oauth_grants').where({ id: grantId }).first('id', 'client_id', 'scopes', 'revoked_at');
    return row
      ? { id: row.id, clientId: row.client_id, scopes: jsonArray(row.scopes), revoked: row.revoked_at !== null }
      : undefined;
  },

  // Cached by the auth service beside keys; every change to what this reads notifies (migrations 022, 032).
  async accessCredentials(db: Executor, tokenHash: string): Promise<AccessTokenCredentials | undefined> {
    const row = await db('oauth_tokens')
      .join('oauth_grants', 'oauth_grants.id', 'oauth_tokens.grant_id')
      .join('team_members', 'team_members.id', 'oauth_grants.member_id')
      .join('teams', 'teams.id', 'oauth_grants.team_id')
      .join('oauth_clients', 'oauth_clients.client_id', 'oauth_grants.client_id')
      .where('oauth_tokens.token_hash', tokenHash)
      .first(
        'oauth_tokens.kind',
        'oauth_tokens.expires_at',
        'oauth_grants.id as grant_id',
        'oauth_grants.team_id',
        'oauth_grants.scopes as grant_scopes',
        'oauth_grants.resource',
        'oauth_grants.revoked_at',
        'oauth_grants.created_at',
        'oauth_grants.last_used_at',
        'team_members.scopes as member_scopes',
        'teams.api_enabled',
        'oauth_clients.metadata',
      );
    if (!row) return undefined;
    const memberScopes = new Set(jsonArray(row.member_scopes));
    return {
      kind: row.kind,
      expiresAt: new Date(row.expires_at).toISOString(),
      grantId: row.grant_id,
      teamId: row.team_id,
      scopes: jsonArray(row.grant_scopes).filter((s) => memberScopes.has(s)),
      resource: row.resource,
      revokedAt: iso(row.revoked_at),
      teamApiEnabled: row.api_enabled,
      clientName: clientNameOf(metadataOf(row.metadata)),
      createdAt: new Date(row.created_at).toISOString(),
      lastUsedAt: iso(row.last_used_at),
    };
  },
};
