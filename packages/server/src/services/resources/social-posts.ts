import { randomUUID } from 'node:crypto';
import type { createSocialPost, EndpointBody, updateSocialPost, V1SocialAccount, V1SocialPost } from '@vsf/contract';
import { conflict, validationFailed } from '../../errors/api-http-error.js';
import { checkTeamMediaUrls } from '../../media/team-media-urls.js';
import type { SocialProvider } from '../../providers/social/social-provider.js';
import { socialAccountsTable, socialPostsTable } from '../../repositories/tables.js';
import type { ServiceDeps } from '../service-deps.js';
import { compareTime } from '../standard/list-filters.js';
import { TeamResource } from '../standard/team-resource.js';

export interface SocialDeps extends ServiceDeps {
  social: SocialProvider;
}

/** Posts to the team's social accounts: drafts, scheduled, then published through the provider. */
export class SocialPosts extends TeamResource<V1SocialPost> {
  constructor(protected override readonly deps: SocialDeps) {
    super(deps, 'marketing.socialPosts', {
      filters: { from: compareTime('scheduledAt', '>='), to: compareTime('scheduledAt', '<') },
    });
  }

  override async create(teamId: string, payload: unknown): Promise<V1SocialPost> {
    const body = payload as EndpointBody<typeof createSocialPost>;
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

  override async update(teamId: string, postId: unknown, payload: unknown): Promise<V1SocialPost> {
    const body = payload as EndpointBody<typeof updateSocialPost>;
    const id = postId as string;
    const current = await this.get(teamId, id);
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

  /** Hands the post to the provider and records the outcome either way; failures keep the post. */
  async publish(teamId: string, id: string): Promise<V1SocialPost> {
    const post = await this.get(teamId, id);
    if (post.status === 'published') throw conflict('The post is already published');
    const account = (await socialAccountsTable.findById(this.deps.db, teamId, post.socialAccountId)) as V1SocialAccount;
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
}
