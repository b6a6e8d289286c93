import { z } from '../zod.js';
import { Int4, LineText, NameText } from './bounds.js';
import { allOptional, teamRecord } from './team-record.js';

export const V1Location = teamRecord('V1Location', {
  name: z.string(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zip: z.string().nullable(),
  phone: z.string().nullable(),
  timezone: z.string().nullable(),
  isActive: z.boolean(),
  sortOrder: z.number().int().nullable(),
});
export type V1Location = z.infer<typeof V1Location>;

const locationFields = {
  name: NameText.min(1).openapi({ example: 'North Warehouse' }),
  address: LineText.nullable().optional(),
  city: NameText.nullable().optional(),
  state: NameText.nullable().optional(),
  zip: NameText.nullable().optional(),
  phone: NameText.nullable().optional(),
  timezone: NameText.nullable().optional().openapi({ example: 'America/Chicago' }),
  isActive: z.boolean().optional(),
  sortOrder: Int4.optional(),
};

export const V1LocationCreate = z.strictObject(locationFields).openapi('V1LocationCreate');
export type V1LocationCreate = z.input<typeof V1LocationCreate>;

export const V1LocationUpdate = z.strictObject(allOptional(locationFields)).openapi('V1LocationUpdate');
export type V1LocationUpdate = z.input<typeof V1LocationUpdate>;
