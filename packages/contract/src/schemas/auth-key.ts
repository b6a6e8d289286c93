import { ALL_SCOPES, type Scope } from '../scopes.js';
import { z } from '../zod.js';
import { NameText } from './bounds.js';
import { Timestamp, TimestampWithOffset, Uuid } from './common.js';

export const ScopeName = z
  .string()
  .max(100)
  .refine((s): s is Scope => (ALL_SCOPES as readonly string[]).includes(s), {
    message: `Unknown scope; expected one of ${ALL_SCOPES.join(', ')}`,
  })
  .openapi({ type: 'string', enum: [...ALL_SCOPES] });

/** The key making the request, as `GET /auth/key` describes it. */
export const V1AuthKey = z
  .object({
    id: Uuid,
    name: z.string(),
    prefix: z.string().openapi({ description: 'Public lookup id of the key (the part before the dot)' }),
    teamId: z.string(),
    scopes: z.array(z.string()),
    expiresAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .openapi('V1AuthKey');
export type V1AuthKey = z.infer<typeof V1AuthKey>;

export const AdminTeam = z
  .object({
    id: Uuid,
    name: z.string(),
    apiEnabled: z.boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('AdminTeam');
export type AdminTeam = z.infer<typeof AdminTeam>;

export const AdminTeamCreate = z
  .strictObject({ name: NameText.min(1), apiEnabled: z.boolean().optional() })
  .openapi('AdminTeamCreate');
export const AdminTeamUpdate = z
  .strictObject({ name: NameText.min(1).optional(), apiEnabled: z.boolean().optional() })
  .openapi('AdminTeamUpdate');

export const AdminKey = z
  .object({
    id: Uuid,
    teamId: z.string(),
    name: z.string(),
    prefix: z.string(),
    scopes: z.array(z.string()),
    expiresAt: Timestamp.nullable(),
    revokedAt: Timestamp.nullable(),
    lastUsedAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('AdminKey');
export type AdminKey = z.infer<typeof AdminKey>;

export const AdminKeyCreated = AdminKey.extend({
  key: z.string().openapi({ description: 'The full API key. Shown only in this response: store it now.' }),
}).openapi('AdminKeyCreated');
export type AdminKeyCreated = z.infer<typeof AdminKeyCreated>;

export const AdminKeyCreate = z
  .strictObject({
    name: NameText.min(1),
    scopes: z.array(ScopeName).min(1).max(ALL_SCOPES.length),
    expiresAt: TimestampWithOffset.nullable().optional(),
  })
  .openapi('AdminKeyCreate');
export const AdminKeyUpdate = z
  .strictObject({ name: NameText.min(1).optional(), expiresAt: TimestampWithOffset.nullable().optional() })
  .openapi('AdminKeyUpdate');
