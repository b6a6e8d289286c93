import { z } from '../zod.js';
import { Timestamp, Uuid } from './common.js';

/**
 * A record a team owns, as the API answers it: `id` and `teamId` first, then its own fields, then when it
 * was created and last updated. A field of the same name replaces the default in place (a nullable
 * `teamId`). The OpenAPI component is `name`, with the description when given.
 */
export function teamRecord<const F extends z.ZodRawShape>(name: string, fields: F, description?: string) {
  const record = z.object({
    id: Uuid,
    teamId: z.string(),
    ...fields,
    createdAt: Timestamp.nullable(),
    updatedAt: Timestamp.nullable(),
  });
  return description ? record.openapi(name, { description }) : record.openapi(name);
}

type AllOptional<F extends z.ZodRawShape> = {
  [K in keyof F]: F[K] extends z.ZodOptional ? F[K] : z.ZodOptional<F[K]>;
};

/** An update body's fields from the create body's: each one optional, everything else as declared. */
export function allOptional<const F extends z.ZodRawShape>(fields: F): AllOptional<F> {
  return Object.fromEntries(
    Object.entries(fields).map(([key, schema]) => [
      key,
      schema instanceof z.ZodOptional ? schema : (schema as z.ZodType).optional(),
    ]),
  ) as AllOptional<F>;
}
