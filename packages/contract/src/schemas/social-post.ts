import { field, fieldTable } from '../field-table.js';
import { z } from '../zod.js';
import { NameText } from './bounds.js';
import { Timestamp, TimestampWithOffset, Uuid } from './common.js';
import { HttpsUrl, MediaUrl } from './media-url.js';
import { allOptional, teamRecord } from './team-record.js';

export const SOCIAL_NETWORKS = [
  'facebook',
  'instagram',
  'x',
  'linkedin',
  'tiktok',
  'youtube',
  'pinterest',
  'threads',
  'google_business',
] as const;
export const SocialNetwork = z.enum(SOCIAL_NETWORKS).openapi('SocialNetwork');

/** A social account's fields, each once: the record, both bodies and the list's filters follow. */
export const socialAccountTable = fieldTable(
  'V1SocialAccount',
  {
    network: field(SocialNetwork, { filter: 'Only accounts on this network' }),
    handle: field(
      z
        .string()
        .max(100)
        .regex(/^[\w.-]{1,100}$/, 'Expected the account name without @: letters, digits, _ . -'),
      { doc: 'The account’s name on the network, without a leading @', example: 'vsf_garage' },
    ),
    displayName: field(NameText.min(1), { nullable: true, doc: 'The name the network shows' }),
    profileUrl: field(HttpsUrl, { nullable: true, doc: 'The account’s page on the network (https)' }),
    isActive: field(z.boolean(), {
      default: true,
      filter: 'Only active (or inactive) accounts',
      doc: 'An inactive account refuses new posts and publishing',
    }),
  },
  'A social account the team posts to. Connecting records the account: the server holds no network credentials and runs no OAuth flow; publishing goes through the configured social provider.',
);
export const V1SocialAccount = socialAccountTable.record;
export type V1SocialAccount = z.infer<typeof V1SocialAccount>;
export const V1SocialAccountCreate = socialAccountTable.createBody;
export type V1SocialAccountCreate = z.input<typeof V1SocialAccountCreate>;
export const V1SocialAccountUpdate = socialAccountTable.updateBody;
export type V1SocialAccountUpdate = z.input<typeof V1SocialAccountUpdate>;

export const SocialPostStatus = z.enum(['draft', 'scheduled', 'published', 'failed']).openapi('SocialPostStatus', {
  description:
    '`draft` and `scheduled` are set by the caller; `published` and `failed` by `POST /marketing/social-posts/{postId}/publish`.',
});

export const V1SocialPost = teamRecord('V1SocialPost', {
  socialAccountId: Uuid,
  network: SocialNetwork.openapi({ description: 'The account’s network, copied for calendars and filters' }),
  body: z.string(),
  mediaUrls: z.array(z.string()),
  scheduledAt: Timestamp.nullable(),
  status: SocialPostStatus,
  provider: z.string().nullable().openapi({ description: 'The provider of the last publish attempt, e.g. `outbox`' }),
  providerPostId: z.string().nullable(),
  error: z.string().nullable().openapi({ description: 'Why the last publish attempt failed' }),
  publishedAt: Timestamp.nullable(),
});
export type V1SocialPost = z.infer<typeof V1SocialPost>;

const postFields = {
  body: z.string().min(1).max(10_000),
  mediaUrls: z.array(MediaUrl).max(20).optional().openapi({ description: 'Up to 20; default []' }),
  scheduledAt: TimestampWithOffset.nullable().optional().openapi({
    description: 'When the post should go out: shown on the marketing calendar. The server does not publish by itself.',
  }),
  status: z.enum(['draft', 'scheduled']).optional().openapi({
    description: 'Default `scheduled` when `scheduledAt` is set, else `draft`; `scheduled` needs `scheduledAt`',
  }),
};

export const V1SocialPostCreate = z
  .strictObject({ socialAccountId: Uuid, ...postFields })
  .refine((b) => b.status !== 'scheduled' || Boolean(b.scheduledAt), {
    message: 'A scheduled post needs scheduledAt',
    path: ['scheduledAt'],
  })
  .openapi('V1SocialPostCreate');
export type V1SocialPostCreate = z.input<typeof V1SocialPostCreate>;

export const V1SocialPostUpdate = z
  .strictObject({ socialAccountId: Uuid.optional(), ...allOptional(postFields) })
  .openapi('V1SocialPostUpdate', { description: 'A published post cannot be edited (409)' });
export type V1SocialPostUpdate = z.input<typeof V1SocialPostUpdate>;
