import { getRefId } from '@asteasolutions/zod-to-openapi';
import { QueryBoolean } from './schemas/common.js';
import { teamRecord } from './schemas/team-record.js';
import { z } from './zod.js';

/** What a field is beyond its type: each said once, and every shape of the resource follows from it. */
export interface FieldOptions {
  /** What the field holds, with units and bounds in words: the OpenAPI description and the SDK's doc comment. */
  readonly doc?: string;
  readonly example?: unknown;
  /** The record may hold `null`: a create may leave it out, an update may send `null` to clear it. */
  readonly nullable?: boolean;
  /** A create may leave it out (the column then holds `null`), though no body may send `null`. */
  readonly optional?: boolean;
  /** What a create that leaves the field out stores (the column's default): the create body may omit it. */
  readonly default?: string | number | boolean;
  /** Set by the server: in the record only, in no body. */
  readonly readOnly?: boolean;
  /** Given at create and never changed: in the record and the create body, not the update body. */
  readonly createOnly?: boolean;
  /**
   * Holds the id of another record of the team: the SDK namespace of its resource (`customers`). Bodies are
   * checked against it (a 400 naming the field when the record is not the team's), and the column refers to it.
   */
  readonly references?: string;
  /** A list filter of equality on the field (`?customerId=`), described with this text. */
  readonly filter?: string;
  /** The record's type where it is not the bodies' (an instant the server answers in UTC), taken as is. */
  readonly record?: z.ZodType;
}

/** One field of a resource: its type (with bounds) as bodies take it, and what else is true of it. */
export interface Field<T extends z.ZodType = z.ZodType, O extends FieldOptions = FieldOptions> {
  readonly type: T;
  readonly options: O;
}

/** Declares one field; `fieldTable` derives the record, the bodies, the filters and the references from it. */
export function field<T extends z.ZodType, const O extends FieldOptions = Record<never, never>>(
  type: T,
  options?: O,
): Field<T, O> {
  return { type, options: options ?? ({} as O) };
}

type Fields = Record<string, Field>;
type Nullable<T extends z.ZodType, O> = O extends { readonly nullable: true }
  ? z.ZodNullable<T> | z.ZodUnion<[T, z.ZodNull]>
  : T;
type RecordType<F> =
  F extends Field<infer T, infer O>
    ? O extends { readonly record: infer R extends z.ZodType }
      ? R
      : Nullable<T, O>
    : never;
type Optional<O> = O extends { readonly nullable: true } | { readonly optional: true }
  ? true
  : 'default' extends keyof O
    ? true
    : false;
type CreateType<F> =
  F extends Field<infer T, infer O>
    ? Optional<O> extends true
      ? z.ZodOptional<Nullable<T, O>>
      : Nullable<T, O>
    : never;
type UpdateType<F> = F extends Field<infer T, infer O> ? z.ZodOptional<Nullable<T, O>> : never;
type KeysWhere<F extends Fields, Excluded> = {
  [K in keyof F]: F[K]['options'] extends Excluded ? never : K;
}[keyof F];
type FilterType<F> =
  F extends Field<infer T, infer O>
    ? O extends { readonly filter: string }
      ? z.ZodOptional<T extends z.ZodBoolean ? typeof QueryBoolean : T>
      : never
    : never;

/** The record's own fields, as the API answers them. */
export type RecordShape<F extends Fields> = { -readonly [K in keyof F]: RecordType<F[K]> };
/** The create body's fields: required unless nullable or defaulted; none the server sets. */
export type CreateShape<F extends Fields> = {
  -readonly [K in KeysWhere<F, { readonly readOnly: true }>]: CreateType<F[K]>;
};
/** The update body's fields: every one optional; none the server sets or that is fixed at create. */
export type UpdateShape<F extends Fields> = {
  -readonly [K in KeysWhere<F, { readonly readOnly: true } | { readonly createOnly: true }>]: UpdateType<F[K]>;
};
/** The list's equality filters. */
export type FilterShape<F extends Fields> = {
  -readonly [K in keyof F as F[K]['options'] extends { readonly filter: string } ? K : never]: FilterType<F[K]>;
};

/**
 * `type.nullable()`, but a named component (`MileageUnits`) as a union with `null`: zod-to-openapi would
 * otherwise make the component itself nullable for every field that uses it.
 */
function nullable(type: z.ZodType): z.ZodType {
  return getRefId(type) ? z.union([type, z.null()]) : type.nullable();
}

/** The field's type with its nullability and its doc: what the record and both bodies start from. */
function described({ type, options }: Field): z.ZodType {
  const base = options.nullable ? nullable(type) : type;
  // The default in words, not OpenAPI's `default`: client generators (openapi-typescript) read that as
  // "always present" and would make the field required in the create body.
  const stored = options.default !== undefined ? `Defaults to \`${JSON.stringify(options.default)}\`.` : undefined;
  const description = [options.doc, stored].filter(Boolean).join('. ').replace(/\.\. /, '. ');
  const meta = {
    ...(description ? { description } : {}),
    ...(options.example !== undefined ? { example: options.example } : {}),
  };
  // A named component keeps its own description: metadata here would rewrite the component everywhere.
  return Object.keys(meta).length > 0 && !getRefId(type) ? base.openapi(meta) : base;
}

function recordType(f: Field): z.ZodType {
  if (!f.options.record) return described(f);
  return f.options.doc ? f.options.record.openapi({ description: f.options.doc }) : f.options.record;
}

function createType(f: Field): z.ZodType {
  const type = described(f);
  const { nullable, optional, default: stored } = f.options;
  return nullable || optional || stored !== undefined ? type.optional() : type;
}

/** A query string holds text: a boolean filter is read as `true`/`false`, and `?vin=` (empty) is refused. */
function filterType({ type, options }: Field): z.ZodType {
  // An id is filtered by a plain UUID: the field's example id would be filled in by "try it out" in /docs
  // and filter everything away.
  const base =
    type instanceof z.ZodBoolean
      ? QueryBoolean
      : type instanceof z.ZodUUID
        ? z.uuid()
        : type instanceof z.ZodString
          ? type.min(1)
          : type;
  // A named component (an enum) is referred to as it is: a description beside it would make it `X & unknown`.
  return getRefId(type) ? base.optional() : base.optional().openapi({ description: options.filter as string });
}

function shapeOf(fields: Fields, keep: (f: Field) => boolean, as: (f: Field) => z.ZodType) {
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([, f]) => keep(f))
      .map(([name, f]) => [name, as(f)]),
  );
}

/** The SDK namespaces a table's references point to, by field (`customerId` → `customers`). */
export type ReferenceTargets = Readonly<Record<string, string>>;

/**
 * A resource's fields, each declared once (as drizzle-zod derives every shape from one table): the record
 * (`teamRecord`: `id`, `teamId`, the fields, the timestamps), the create and update bodies, the list's
 * filters and the body fields that refer to other records. Spread it into `defineResource`; the
 * migration's columns come from the same table (`resourceColumns` on the server).
 */
export function fieldTable<const F extends Fields>(name: string, fields: F, description?: string) {
  const writable = (f: Field) => !f.options.readOnly;
  const createShape = shapeOf(fields, writable, createType) as CreateShape<F>;
  const updateShape = shapeOf(
    fields,
    (f) => writable(f) && !f.options.createOnly,
    (f) => described(f).optional(),
  ) as UpdateShape<F>;
  const targets = Object.fromEntries(
    Object.entries(fields).flatMap(([key, f]) => (f.options.references ? [[key, f.options.references]] : [])),
  ) as ReferenceTargets;
  return {
    fields,
    record: teamRecord(name, shapeOf(fields, () => true, recordType) as RecordShape<F>, description),
    createBody: z.strictObject(createShape).openapi(`${name}Create`),
    updateBody: z.strictObject(updateShape).openapi(`${name}Update`),
    /** The update body's fields, for an update that adds its own (`restore`) around them. */
    updateShape,
    filters: shapeOf(fields, (f) => f.options.filter !== undefined, filterType) as FilterShape<F>,
    references: Object.keys(targets),
    referenceTargets: targets,
  };
}
