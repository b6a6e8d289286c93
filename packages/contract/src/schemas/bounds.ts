import { z } from '../zod.js';

/**
 * Bounded primitives for every input field: what the database can hold, declared once. A field built from
 * these gets its bounds (and `maxLength`/`maximum` in the OpenAPI document) for free; `bounds.test.ts` fails
 * when an endpoint's params, query or body has a string, integer or array without them.
 */

/** PostgreSQL `integer` (int4), the type of every integer column but `declared_value_cents`. */
export const INT4_MIN = -(2 ** 31);
export const INT4_MAX = 2 ** 31 - 1;

/** An integer an `integer` column holds. Narrow it further with `.min()`/`.max()`. */
export const Int4 = z.number().int().min(INT4_MIN).max(INT4_MAX);

/**
 * An integer for a `bigint` column: zod's integers are already JavaScript's safe integers (±2⁵³−1), which a
 * bigint holds; `format: int64` declares the wider range to the bounds test and the OpenAPI document.
 */
export const Int8 = z.number().int().meta({ format: 'int64' });

/**
 * String lengths, in characters (Unicode code points, as zod and JSON Schema count them: at most 4 bytes
 * each in UTF-8). `indexed` keeps a btree entry (team id + value, ≤ 816 bytes) far under PostgreSQL's
 * ~2 700-byte limit even in 4-byte characters.
 */
export const TEXT_MAX = {
  indexed: 200,
  name: 200,
  line: 500,
  long: 10_000,
  html: 200_000,
  url: 2048,
} as const;

/** The largest JSON body the server reads (413 beyond); also the bound of inline base64 bytes. */
export const BODY_LIMIT_BYTES = 5 * 1024 * 1024;

/** A value stored in an indexed column or compared against one (VIN, stock number, spot label, filters). */
export const IndexedText = z.string().max(TEXT_MAX.indexed);
/** A name, label, subject, phone number or other one-line identifier. */
export const NameText = z.string().max(TEXT_MAX.name);
/** A longer single line: an address, a venue, a URL. */
export const LineText = z.string().max(TEXT_MAX.line);
/** Free text: notes, descriptions, message bodies. */
export const LongText = z.string().max(TEXT_MAX.long);
/** An email address (RFC 5321's 320 characters). */
export const EmailText = z.email().max(320);

/** Keys of free-form JSON objects (form values, metadata). */
export const JsonKey = z.string().max(TEXT_MAX.name);

/**
 * Instants a client may send: PostgreSQL's `timestamptz`, JavaScript's `Date` and the sync's mirrors all
 * hold years 0001–9999; year 0000 does not exist in PostgreSQL, and expanded years (`+275760`) in none.
 */
export const MIN_INSTANT = new Date('0001-01-01T00:00:00Z').getTime();
export const MAX_INSTANT = new Date('9999-12-31T23:59:59.999Z').getTime();

/** Whether an ISO 8601 timestamp (already well-formed) names an instant the database can store. */
export function isStorableInstant(value: string | Date): boolean {
  if (typeof value === 'string' && /^0000/.test(value)) return false;
  const time = typeof value === 'string' ? Date.parse(value) : value.getTime();
  return Number.isFinite(time) && time >= MIN_INSTANT && time <= MAX_INSTANT;
}

export const INSTANT_RANGE_MESSAGE = 'Expected a time between 0001-01-01 and 9999-12-31';
