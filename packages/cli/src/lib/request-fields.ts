// Field types come from a table generated from the OpenAPI document (src/generated/request-fields.ts), not
// from the zod contract or the 1 MB document itself: the CLI loads neither zod nor the docs' prose.
import { REQUEST_FIELDS } from '../generated/request-fields.js';
import { CliError, EXIT } from './exit-codes.js';
import type { FieldSchema } from './field-schema.js';

export type { FieldSchema } from './field-schema.js';

/** The fields of an operation's JSON request body, by operationId (`updateCar`), as the contract declares them. */
export function requestFields(operationId: string): Record<string, FieldSchema> {
  const fields = Object.hasOwn(REQUEST_FIELDS, operationId) ? REQUEST_FIELDS[operationId] : undefined;
  if (!fields) throw new Error(`openapi.json has no JSON request body for ${operationId}`);
  return fields;
}

/** `integer or null`, `one of km, mi`: the type as a user reads it in an error. */
export function describeType(schema: FieldSchema): string {
  const s = schema;
  const alternatives = s.anyOf ?? s.oneOf;
  let text: string;
  if (alternatives) text = alternatives.map(describeType).join(' or ');
  else if (s.enum) text = `one of ${s.enum.map(String).join(', ')}`;
  else if (s.type === 'array') text = `list of ${s.items ? describeType(s.items) : 'values'}`;
  else text = `${s.format ? `${s.format} ` : ''}${s.type ?? 'value'}`;
  return s.nullable ? `${text} or null` : text;
}

/** Converts one `--set` value by the field's declared type; undefined when it does not fit. */
function convert(raw: string, schema: FieldSchema): { value: unknown } | undefined {
  const s = schema;
  if (raw === 'null' && (s.nullable || s.type === 'null')) return { value: null };
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) {
    for (const alternative of alternatives) {
      const converted = convert(raw, alternative);
      if (converted) return converted;
    }
    return undefined;
  }
  if (s.enum) {
    const match = s.enum.find((v) => String(v) === raw);
    return match === undefined ? undefined : { value: match };
  }
  switch (s.type) {
    case 'string':
      return { value: raw };
    case 'integer':
      return /^-?\d+$/.test(raw) && Number.isSafeInteger(Number(raw)) ? { value: Number(raw) } : undefined;
    case 'number':
      return raw.trim() !== '' && Number.isFinite(Number(raw)) ? { value: Number(raw) } : undefined;
    case 'boolean':
      return raw === 'true' ? { value: true } : raw === 'false' ? { value: false } : undefined;
    case 'array': {
      // A JSON array, or a comma-separated list whose items convert by the item type.
      const parts = raw.trim().startsWith('[') ? parseJson(raw) : raw === '' ? [] : raw.split(',');
      if (!Array.isArray(parts)) return undefined;
      const items = parts.map((p) =>
        typeof p === 'string' ? convert(p.trim(), s.items ?? {}) : { value: p as unknown },
      );
      return items.every(Boolean) ? { value: items.map((i) => i?.value) } : undefined;
    }
    case 'object': {
      const parsed = parseJson(raw);
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? { value: parsed } : undefined;
    }
    default:
      return { value: raw };
  }
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/**
 * Parses `--set field=value` pairs for an operation's body. Each value converts by the field's type in the
 * contract (a string field takes the text as it is, so `stockNumber=4711` stays "4711"); an unknown field or
 * a value that does not fit its type is a usage error naming both.
 */
export function parseAssignments(pairs: string[], operationId: string, command: string): Record<string, unknown> {
  const fields = requestFields(operationId);
  const body: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new CliError(`Expected field=value, got "${pair}"`, EXIT.usage);
    const [field, raw] = [pair.slice(0, eq), pair.slice(eq + 1)];
    const schema = Object.hasOwn(fields, field) ? fields[field] : undefined;
    if (!schema) {
      const known = Object.entries(fields).map(([name, s]) => `  ${name} (${describeType(s)})`);
      throw new CliError(`${command} has no field "${field}". Fields:\n${known.join('\n')}`, EXIT.usage);
    }
    const converted = convert(raw, schema);
    if (!converted) throw new CliError(`--set ${field}: expected ${describeType(schema)}, got "${raw}"`, EXIT.usage);
    body[field] = converted.value;
  }
  return body;
}
