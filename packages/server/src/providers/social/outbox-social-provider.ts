import { randomUUID } from 'node:crypto';
import type { SocialProvider, SocialPublishRequest } from './social-provider.js';

/**
 * The default provider: records what would have been posted in the `social_outbox` table and calls no
 * network, so a server with no social accounts' credentials works end to end (and tests stay offline).
 */
export class OutboxSocialProvider implements SocialProvider {
  readonly name = 'outbox';

  async publish(request: SocialPublishRequest) {
    const id = randomUUID();
    // A savepoint of its own: a failed insert must not abort the caller's transaction, which still has to
    // record the failure on the post.
    await request.db.transaction(async (trx) => {
      await trx('social_outbox').insert({
        id,
        team_id: request.teamId,
        social_post_id: request.postId,
        network: request.account.network,
        handle: request.account.handle,
        body: request.body,
        media_urls: JSON.stringify(request.mediaUrls),
        created_at: request.now,
      });
    });
    return { providerPostId: id };
  }
}
