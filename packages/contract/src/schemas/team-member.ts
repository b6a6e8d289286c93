import { ALL_SCOPES, type Scope } from '../scopes.js';
import { z } from '../zod.js';
import { ScopeName } from './auth-key.js';
import { EmailText, NameText } from './bounds.js';
import { Timestamp, Uuid } from './common.js';

/**
 * Passwords of team members, who sign in to the assistant connector (OAuth). NIST SP 800-63B's floor of
 * 8 characters, and a ceiling that keeps hashing one cheap: the server stores only an scrypt hash.
 */
export const MemberPassword = z
  .string()
  .min(8, 'Use at least 8 characters')
  .max(256)
  .openapi({ description: 'At least 8 characters. Stored only as an scrypt hash, never logged or returned.' });

/**
 * What an assistant may be granted: every scope but the `webhooks` extension's. A webhook endpoint acts
 * with its creating API key's standing (revoking the key disables it), so it is an integration's, made
 * with a key, not an assistant's.
 */
export const ASSISTANT_SCOPES: readonly Scope[] = ALL_SCOPES.filter((s) => !s.endsWith(':webhooks'));

/** Scopes a member may grant to an assistant; an empty list lets them sign in but grant nothing. */
const MemberScopes = z
  .array(
    ScopeName.refine((s) => (ASSISTANT_SCOPES as readonly string[]).includes(s), {
      message: 'Webhook scopes cannot be granted to assistants: an endpoint acts with an API key; create it with a key',
    }),
  )
  .max(ASSISTANT_SCOPES.length)
  .openapi({
    description:
      'Scopes the member may grant to an assistant (`read:`/`write:` names, all but `read:webhooks` and `write:webhooks`); a grant never holds more',
  });

export const AdminMember = z
  .object({
    id: Uuid,
    teamId: z.string(),
    email: z.string().openapi({ description: 'Sign-in name, lower-cased; unique across the installation' }),
    scopes: z.array(z.string()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('AdminMember');
export type AdminMember = z.infer<typeof AdminMember>;

export const AdminMemberCreate = z
  .strictObject({ email: EmailText, password: MemberPassword, scopes: MemberScopes })
  .openapi('AdminMemberCreate', {
    example: { email: 'sam@example.com', password: 'correct horse battery', scopes: ['read:cars', 'write:cars'] },
  });

export const AdminMemberUpdate = z
  .strictObject({ password: MemberPassword.optional(), scopes: MemberScopes.optional() })
  .openapi('AdminMemberUpdate', {
    description:
      'A new password ends every grant the member gave (their assistants sign in again); narrower scopes narrow their grants at once.',
    example: { scopes: ['read:cars'] },
  });

/** What a member allowed an assistant (an OAuth client) to do; its tokens act with exactly these scopes. */
export const AdminGrant = z
  .object({
    id: Uuid,
    teamId: z.string(),
    memberId: Uuid,
    memberEmail: z.string(),
    clientId: z.string(),
    clientName: NameText.openapi({ description: 'The name the assistant registered with' }),
    scopes: z.array(z.string()),
    createdAt: Timestamp,
    lastUsedAt: Timestamp.nullable(),
    revokedAt: Timestamp.nullable(),
  })
  .openapi('AdminGrant');
export type AdminGrant = z.infer<typeof AdminGrant>;
