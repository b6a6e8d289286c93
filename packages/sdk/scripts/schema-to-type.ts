import { docComment } from './doc-comment.js';

/** The part of an OpenAPI 3.0 schema object the contract's documents use. */
export interface SchemaObject {
  $ref?: string;
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  format?: string;
  nullable?: boolean;
  enum?: unknown[];
  items?: SchemaObject;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  additionalProperties?: boolean | SchemaObject;
  anyOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  allOf?: SchemaObject[];
  description?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  default?: unknown;
  example?: unknown;
}

/** How `$ref`s are named in the output, and extra doc lines per property (the scopes a field needs). */
export interface TypeContext {
  refName(ref: string): string;
  /** Whether optional properties also accept `undefined` (request parameters, under `exactOptionalPropertyTypes`). */
  input: boolean;
  extraDocs?: (property: string) => string[];
  /** A type of a property other than its schema's (a query's `Date`, which the SDK serializes). */
  override?: (property: string, schema: SchemaObject) => string | undefined;
}

const INT32 = 2 ** 31;

/** What a reader needs beside the type: bounds, units of length, format, default, nullability, an example. */
export function facts(schema: SchemaObject): string[] {
  const out: string[] = [];
  const { minimum: min, maximum: max } = schema;
  // The int4/int8 limits of a column say "an integer", not a bound anyone chose: left out.
  const chosen = (n: number | undefined) => n !== undefined && Math.abs(n) < INT32 - 1 && Math.abs(n) < 2 ** 53 - 1;
  if (chosen(min) && chosen(max)) out.push(`From ${min} to ${max}.`);
  else if (chosen(min)) out.push(`At least ${min}.`);
  else if (chosen(max)) out.push(`At most ${max}.`);
  if (schema.type === 'integer') out.push(schema.format === 'int64' ? 'A whole number (64-bit).' : 'A whole number.');
  const { minLength, maxLength } = schema;
  if (minLength && maxLength) out.push(`${minLength} to ${maxLength} characters.`);
  else if (maxLength) out.push(`Up to ${maxLength} characters.`);
  else if (minLength) out.push(`At least ${minLength} characters.`);
  if (schema.minItems && schema.maxItems) out.push(`${schema.minItems} to ${schema.maxItems} items.`);
  else if (schema.maxItems) out.push(`Up to ${schema.maxItems} items.`);
  else if (schema.minItems) out.push(`At least ${schema.minItems} items.`);
  const format = FORMATS[schema.format ?? ''];
  if (format) out.push(format);
  if (schema.pattern) out.push(`Matches \`${schema.pattern}\`.`);
  if (schema.default !== undefined) out.push(`Defaults to \`${JSON.stringify(schema.default)}\`.`);
  if (schema.nullable) out.push('May be `null`.');
  // A format already says what an id or a timestamp looks like.
  if (schema.example !== undefined && typeof schema.example !== 'object' && !format)
    out.push(`Example: \`${JSON.stringify(schema.example)}\`.`);
  return out;
}

const FORMATS: Record<string, string> = {
  uuid: 'A UUID.',
  'date-time': 'An ISO 8601 timestamp with a timezone offset.',
  date: 'An ISO 8601 date (`YYYY-MM-DD`).',
  email: 'An email address.',
  uri: 'An absolute URL.',
  binary: 'Bytes.',
};

/** The doc comment lines of a property: its description, then its facts on one line. */
export function propertyDocs(schema: SchemaObject, extra: string[] = []): string[] {
  const description = schema.description ?? (schema.$ref ? undefined : firstDescription(schema));
  const known = [...facts(schema), ...factsOfAlternatives(schema)];
  return [
    ...(description ? [description] : []),
    ...(known.length ? [...(description ? [''] : []), known.join(' ')] : []),
    ...(extra.length ? ['', ...extra] : []),
  ];
}

function firstDescription(schema: SchemaObject): string | undefined {
  for (const s of [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])])
    if (s.description) return s.description;
  return undefined;
}

/** `nullable` on an `allOf: [{$ref}]` wrapper: its facts live on the wrapper, the rest on the target. */
function factsOfAlternatives(schema: SchemaObject): string[] {
  if (!schema.items) return [];
  const inner = facts(schema.items).filter((f) => !f.startsWith('Example'));
  return inner.length ? [`Each: ${inner.join(' ')}`] : [];
}

const literal = (value: unknown) => (typeof value === 'string' ? `'${value.replace(/'/g, "\\'")}'` : String(value));

/** The TypeScript type of `schema`; objects are written over several lines, indented under `indent`. */
export function typeOf(schema: SchemaObject, ctx: TypeContext, indent = ''): string {
  const base = baseTypeOf(schema, ctx, indent);
  return schema.nullable && base !== 'unknown' ? `${parenthesize(base)} | null` : base;
}

function parenthesize(type: string): string {
  return /^[\w.<>[\]', ]+$/.test(type) || type.startsWith('{') ? type : `(${type})`;
}

function baseTypeOf(schema: SchemaObject, ctx: TypeContext, indent: string): string {
  if (schema.$ref) return ctx.refName(schema.$ref);
  if (schema.enum) return schema.enum.map(literal).join(' | ');
  if (schema.allOf) return schema.allOf.map((s) => parenthesize(typeOf(s, ctx, indent))).join(' & ');
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return [...new Set(alternatives.map((s) => typeOf(s, ctx, indent)))].join(' | ');
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array': {
      const item = typeOf(schema.items ?? {}, ctx, indent);
      return item.includes('\n') || /[|&]/.test(item) ? `Array<${item}>` : `${item}[]`;
    }
    case 'object':
      return objectType(schema, ctx, indent);
    default:
      return schema.properties ? objectType(schema, ctx, indent) : 'unknown';
  }
}

function objectType(schema: SchemaObject, ctx: TypeContext, indent: string): string {
  const members = objectMembers(schema, ctx, `${indent}  `);
  const extra = schema.additionalProperties;
  if (members.length === 0) {
    if (extra && typeof extra === 'object') return `Record<string, ${typeOf(extra, ctx, indent)}>`;
    return extra === false ? 'Record<string, never>' : 'Record<string, unknown>';
  }
  return `{\n${members.join('\n')}\n${indent}}`;
}

/** The members of an object schema, each with its doc comment. */
export function objectMembers(schema: SchemaObject, ctx: TypeContext, indent: string): string[] {
  const required = new Set(schema.required ?? []);
  const lines: string[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : `'${name}'`;
    const optional = !required.has(name);
    const type = ctx.override?.(name, property) ?? typeOf(property, ctx, indent);
    lines.push(...docComment(propertyDocs(property, ctx.extraDocs?.(name) ?? []), indent));
    lines.push(`${indent}${key}${optional ? '?' : ''}: ${type}${optional && ctx.input ? ' | undefined' : ''};`);
  }
  return lines;
}
