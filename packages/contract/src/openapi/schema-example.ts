/**
 * Builds an example value from a generated OpenAPI 3.0 schema, so every request and response in the
 * document carries one without each endpoint writing it by hand. An `example` declared on a schema
 * (with `.openapi({ example })` in the contract) always wins; otherwise the value follows the schema's
 * type, format, enum, default and bounds, with readable values for common field names. `redocly lint`
 * (`no-invalid-media-type-examples`) checks every result against its schema.
 */
export interface SchemaObject {
  $ref?: string;
  type?: string;
  format?: string;
  nullable?: boolean;
  enum?: unknown[];
  example?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  additionalProperties?: boolean | SchemaObject;
  items?: SchemaObject;
  allOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  anyOf?: SchemaObject[];
}

export const EXAMPLE_UUID = '0b6f4c3e-8a8f-4d0e-9a57-2f1c5d7e9b10';

const BY_FORMAT: Record<string, string> = {
  uuid: EXAMPLE_UUID,
  'date-time': '2026-01-15T09:30:00.000Z',
  date: '2026-01-15',
  email: 'jane.doe@example.com',
  uri: 'https://example.com/photos/front.jpg',
};

/** Readable strings for field names that recur across resources; anything else falls back to its type. */
const BY_FIELD_NAME: Record<string, string> = {
  name: 'Main lot',
  firstName: 'Jane',
  lastName: 'Doe',
  email: 'jane.doe@example.com',
  phone: '+15555550123',
  make: 'Toyota',
  model: 'Corolla',
  trim: 'LE',
  color: 'Silver',
  vin: '1HGCM82633A004352',
  licensePlate: '7ABC123',
  notes: 'Customer asked for a battery tender.',
  filename: 'front.jpg',
  contentType: 'image/jpeg',
  title: 'Spring open house',
  subject: 'Your car is ready',
  body: 'Hi {{firstName}}, your car is ready for pick-up.',
};

export function resolveRef(schema: SchemaObject, components: Record<string, SchemaObject>): SchemaObject {
  let current = schema;
  for (let hops = 0; current.$ref && hops < 20; hops++) {
    const name = current.$ref.replace('#/components/schemas/', '');
    const target = components[name];
    if (!target) throw new Error(`OpenAPI example: unknown schema reference ${current.$ref}`);
    current = target;
  }
  return current;
}

export function schemaExample(
  input: SchemaObject,
  components: Record<string, SchemaObject>,
  fieldName?: string,
  depth = 0,
  request = false,
): unknown {
  const schema = resolveRef(input, components);
  if (schema.example !== undefined) return schema.example;
  if (input.example !== undefined) return input.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  // Recursive schemas stop here rather than loop.
  if (depth > 8) return schema.nullable ? null : {};
  const next = (s: SchemaObject, name?: string) => schemaExample(s, components, name, depth + 1, request);

  if (schema.allOf) {
    // `allOf` is either object parts to merge or one real schema plus metadata-only parts (a description).
    const parts = schema.allOf.filter((part) => Object.keys(part).some((k) => k !== 'description'));
    const values = parts.map((part) => next(part, fieldName));
    const isRecord = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
    return values.length > 1 && values.every(isRecord) ? Object.assign({}, ...values) : values[0];
  }
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives?.[0]) return next(alternatives[0], fieldName);

  switch (schema.type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        // A request example is tried as it stands ("Try it out"): an optional reference to another record
        // would name one that does not exist and turn the call into a 400, so it is left out.
        if (request && /Ids?$/.test(name) && !(schema.required ?? []).includes(name)) continue;
        value[name] = next(property, name);
      }
      return endAfterStart(value);
    }
    case 'array': {
      const item = schema.items ? next(schema.items, fieldName) : 'string';
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => item);
    }
    case 'integer':
    case 'number':
      return numberExample(schema, fieldName);
    case 'boolean':
      return true;
    case 'string':
      return stringExample(schema, fieldName);
    default:
      return schema.nullable ? null : {};
  }
}

/** A period's start and end fields: the server refuses an end that is not after its start. */
const PERIODS: readonly [start: string, end: string][] = [
  ['startAt', 'endAt'],
  ['startsAt', 'endsAt'],
];

/** Moves an example's end an hour past its start when both came out as the same timestamp. */
function endAfterStart(value: Record<string, unknown>): Record<string, unknown> {
  for (const [start, end] of PERIODS) {
    const from = value[start];
    if (typeof from === 'string' && value[end] === from) value[end] = anHourLater(from);
  }
  return value;
}

/** `2026-01-15T10:30:00+01:00` → `2026-01-15T11:30:00+01:00`, keeping the offset as written (UTC past 23:00). */
function anHourLater(timestamp: string): string {
  const hour = Number(/T(\d{2})/.exec(timestamp)?.[1] ?? 23);
  if (hour >= 23) return new Date(Date.parse(timestamp) + 3_600_000).toISOString();
  return timestamp.replace(/T\d{2}/, `T${String(hour + 1).padStart(2, '0')}`);
}

function numberExample(schema: SchemaObject, fieldName: string | undefined): number {
  const preferred = fieldName === 'year' ? 2021 : fieldName?.endsWith('Cents') ? 1_250_000 : 1;
  const min = schema.minimum ?? Number.NEGATIVE_INFINITY;
  const max = schema.maximum ?? Number.POSITIVE_INFINITY;
  return Math.min(Math.max(preferred, min), max);
}

function stringExample(schema: SchemaObject, fieldName: string | undefined): string {
  const byFormat = schema.format ? BY_FORMAT[schema.format] : undefined;
  let value = byFormat ?? (fieldName ? BY_FIELD_NAME[fieldName] : undefined) ?? 'string';
  if (schema.minLength !== undefined && value.length < schema.minLength) value = value.padEnd(schema.minLength, 'x');
  if (schema.maxLength !== undefined && value.length > schema.maxLength) value = value.slice(0, schema.maxLength);
  return value;
}
