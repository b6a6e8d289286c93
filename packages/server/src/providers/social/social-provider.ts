import type { Executor } from '../../repositories/team-scoped-table.js';

/** What a provider gets to publish one post. */
export interface SocialPublishRequest {
  teamId: string;
  postId: string;
  account: { id: string; network: string; handle: string };
  body: string;
  mediaUrls: string[];
  /** The database the request runs in, for providers that record locally (the outbox). */
  db: Executor;
  now: Date;
}

export interface SocialPublishResult {
  /** The network's id of the published post (the outbox's row id for the outbox). */
  providerPostId: string;
}

/**
 * Publishes posts to a social network. A failure is thrown as an Error whose message is kept on the post
 * (`status: failed`, `error`); the post itself is never lost.
 */
export interface SocialProvider {
  /** Recorded on the post as `provider`. */
  readonly name: string;
  publish(request: SocialPublishRequest): Promise<SocialPublishResult>;
}
