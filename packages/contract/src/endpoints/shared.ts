import { IdParam } from '../schemas/common.js';
import { z } from '../zod.js';

/** `{ <name>: uuid }` path parameters. */
export function idParams<const K extends string>(...names: K[]) {
  return z.strictObject(Object.fromEntries(names.map((n) => [n, IdParam])) as Record<K, typeof IdParam>);
}
