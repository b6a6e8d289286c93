import { randomUUID } from 'node:crypto';
import type {
  createSocialAccount,
  createSocialPost,
  EndpointBody,
  EndpointQuery,
  listSocialAccounts,
  listSocialPosts,
  updateSocialAccount,
  updateSocialPost,
  V1SocialAccount,
  V1SocialPost,
} from '@vsf/contract';
import { conflict, notFound, validationFailed } from '../errors/api-http-error.js';
import { checkTeamMediaUrls } from '../media/team-media-urls.js';
import type { SocialProvider } from '../providers/social/social-provider.js';
import { socialAccountsTable, socialPostsTable } from '../repositories/engagement-tables.js';
import type { ListResult } from '../repositories/team-scoped-table.js';
import type { ServiceDeps } from './service-deps.js';

const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';
const codeOf = (error: unknown) => (error as { code?: string }).code;

export interface SocialDeps extends ServiceDeps {
  social: SocialProvider;
}

/** Connected social accounts and the posts published to them. */
export class SocialPostsService {
  constructor(private readonly deps: SocialDeps) {}

  listAccounts(teamId: string, query: EndpointQuery<typeof listSocialAccounts>): Promise<ListResult<V1SocialAccount>> {
    return socialAccountsTable.list(this.deps.db, teamId, query, (q) => {
      if (query.network) q.where('social_accounts.network', query.network);
      if (query.isActive !== undefined) q.where('social_accounts.is_active', query.isActive);
    });
  }

  async getAccount(teamId: string, id: string): Promise<V1SocialAccount> {
    const account = await socialAccountsTable.findById(this.deps.db, teamId, id);
    if (!account) throw notFound('Social account');
    return account;
  }

  createAccount(teamId: string, body: EndpointBody<typeof createSocialAccount>): Promise<V1SocialAccount> {
    return this.uniqueHandle(() =>
      socialAccountsTable.insert(
        this.deps.db,
        teamId,
        {
          id: randomUUID(),
          network: body.network,
          handle: body.handle,
          displayName: body.displayName ?? null,
          profileUrl: body.profileUrl ?? null,
          isActive: body.isActive ?? true,
        },
        this.deps.now(),
      ),
    );
  }

  async updateAccount(
    teamId: string,
    id: string,
    body: EndpointBody<typeof updateSocialAccount>,
  ): Promise<V1SocialAccount> {
    await this.getAccount(teamId, id);
    return this.deps.db.transaction((trx) =>
      this.uniqueHandle(async () => {
        const now = this.deps.now();
        const account = (await socialAccountsTable.update(trx, teamId, id, body, now)) as V1SocialAccount;
        // Posts carry their account's network for calendars and filters.
        if (body.network)
          await socialPostsTable
            .scoped(trx, teamId)
            .where('social_posts.social_account_id', id)
            .update({ network: body.network, updated_at: now });
        return account;
      }),
    );
  }

  async deleteAccount(teamId: string, id: string) {
    try {
      if (!(await socialAccountsTable.delete(this.deps.db, teamId, id))) throw notFound('Social account');
    } catch (error) {
      if (codeOf(error) === FOREIGN_KEY_VIOLATION)
        throw conflict('The account has posts; set isActive to false or delete its posts first');
      throw error;
    }
    return { id, deleted: true as const };
  }

  listPosts(teamId: string, query: EndpointQuery<typeof listSocialPosts>): Promise<ListResult<V1SocialPost>> {
    return socialPostsTable.list(this.deps.db, teamId, query, (q) => {
      if (query.socialAccountId) q.where('social_posts.social_account_id', query.socialAccountId);
      if (query.status) q.where('social_posts.status', query.status);
      if (query.from) q.where('social_posts.scheduled_at', '>=', new Date(query.from));
      if (query.to) q.where('social_posts.scheduled_at', '<', new Date(query.to));
    });
  }

  async getPost(teamId: string, id: string): Promise<V1SocialPost> {
    const post = await socialPostsTable.findById(this.deps.db, teamId, id);
    if (!post) throw notFound('Social post');
    return post;
  }

  async createPost(teamId: string, body: EndpointBody<typeof createSocialPost>): Promise<V1SocialPost> {
    const account = await this.activeAccount(teamId, body.socialAccountId);
    await checkTeamMediaUrls(this.deps.db, teamId, body.mediaUrls ?? []);
    return socialPostsTable.insert(
      this.deps.db,
      teamId,
      {
        id: randomUUID(),
        socialAccountId: account.id,
        network: account.network,
        body: body.body,
        mediaUrls: body.mediaUrls ?? [],
        scheduledAt: body.scheduledAt ? new Date(body.scheduledAt).toISOString() : null,
        status: body.status ?? (body.scheduledAt ? 'scheduled' : 'draft'),
        provider: null,
        providerPostId: null,
        error: null,
        publishedAt: null,
      },
      this.deps.now(),
    );
  }

  async updatePost(teamId: string, id: string, body: EndpointBody<typeof updateSocialPost>): Promise<V1SocialPost> {
    const current = await this.getPost(teamId, id);
    if (current.status === 'published') throw conflict('The post is published; it can no longer be edited');
    const account = body.socialAccountId ? await this.activeAccount(teamId, body.socialAccountId) : undefined;
    if (body.mediaUrls) await checkTeamMediaUrls(this.deps.db, teamId, body.mediaUrls);
    const scheduledAt = body.scheduledAt ? new Date(body.scheduledAt).toISOString() : body.scheduledAt;
    const nextScheduledAt = scheduledAt === undefined ? current.scheduledAt : scheduledAt;
    // An explicit status wins; otherwise a draft or scheduled post follows whether it has a date.
    const status =
      body.status ??
      (current.status === 'failed' && scheduledAt === undefined ? 'failed' : nextScheduledAt ? 'scheduled' : 'draft');
    if (status === 'scheduled' && !nextScheduledAt)
      throw validationFailed([{ path: 'scheduledAt', message: 'A scheduled post needs scheduledAt' }]);
    return (await socialPostsTable.update(
      this.deps.db,
      teamId,
      id,
      { ...body, scheduledAt, status, network: account?.network },
      this.deps.now(),
    )) as V1SocialPost;
  }

  async deletePost(teamId: string, id: string) {
    if (!(await socialPostsTable.delete(this.deps.db, teamId, id))) throw notFound('Social post');
    return { id, deleted: true as const };
  }

  /** Hands the post to the provider and records the outcome either way; failures keep the post. */
  async publish(teamId: string, id: string): Promise<V1SocialPost> {
    const post = await this.getPost(teamId, id);
    if (post.status === 'published') throw conflict('The post is already published');
    const account = await this.getAccount(teamId, post.socialAccountId);
    if (!account.isActive)
      throw conflict('The post’s social account is inactive; reactivate it or move the post to another account');
    const provider = this.deps.social;
    let outcome: Partial<V1SocialPost>;
    try {
      const result = await provider.publish({
        teamId,
        postId: post.id,
        account: { id: account.id, network: account.network, handle: account.handle },
        body: post.body,
        mediaUrls: post.mediaUrls,
        db: this.deps.db,
        now: this.deps.now(),
      });
      outcome = {
        status: 'published',
        providerPostId: result.providerPostId,
        error: null,
        publishedAt: this.deps.now().toISOString(),
      };
    } catch (error) {
      outcome = {
        status: 'failed',
        providerPostId: null,
        error: error instanceof Error ? error.message : String(error),
      };
    }
    return (await socialPostsTable.update(
      this.deps.db,
      teamId,
      id,
      { ...outcome, provider: provider.name },
      this.deps.now(),
    )) as V1SocialPost;
  }

  private async activeAccount(teamId: string, id: string): Promise<V1SocialAccount> {
    const account = await socialAccountsTable.findById(this.deps.db, teamId, id);
    if (!account) throw validationFailed([{ path: 'socialAccountId', message: 'Social account not found' }]);
    if (!account.isActive)
      throw validationFailed([{ path: 'socialAccountId', message: 'The social account is inactive' }]);
    return account;
  }

  private async uniqueHandle<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (codeOf(error) === UNIQUE_VIOLATION) throw conflict('The team already has this account on this network');
      throw error;
    }
  }
}
