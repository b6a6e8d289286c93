import type { JsonSchema } from '@vsf/contract';
import { type EndpointDefinition, INT4_MAX } from '@vsf/contract';
import { z } from 'zod';

/**
 * Boundary inputs derived from the contract's JSON Schema, field by field, for the fuzz suite: every
 * integer, number, string, date-time, array and free-form JSON field of every endpoint's body and query
 * gets the values at and past its declared bounds, NUL-bearing strings and keys, extreme dates and deep
 * nesting; every endpoint gets odd encodings and prototype-like path segments. A new field gets them
 * by being in the contract.
 */

export interface BoundaryCase {
  /** Why the case exists: `<part> <field>: <kind>`, for failure messages and counts. */
  label: string;
  kind: string;
  /** `reject`: past a bound, must be a 4xx that changes nothing; `edge`: at a bound, must not be a 5xx. */
  expect: 'reject' | 'edge';
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
}

/** Values a field must refuse and values at its edge, by the kind its JSON Schema declares. */
function valuesFor(s: JsonSchema): { reject: [string, unknown][]; edge: [string, unknown][] } {
  const reject: [string, unknown][] = [];
  const edge: [string, unknown][] = [];
  const branches = [...(s.anyOf ?? []), ...(s.oneOf ?? [])];
  if (branches.length > 0) {
    // A union's bounds are its branches'; the string branch (how query values arrive) else the first typed one.
    const typed =
      branches.find((b) => b.type === 'string') ??
      branches.find((b) => b.type !== 'null' && b.type !== undefined) ??
      branches[0];
    if (typed && Object.keys(typed).length > 0) return valuesFor(typed);
  }
  const types = s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes('integer') || types.includes('number')) {
    const max = s.maximum ?? Number.MAX_SAFE_INTEGER;
    const min = s.minimum ?? -Number.MAX_SAFE_INTEGER;
    reject.push(['above maximum', max + 1], ['below minimum', min - 1], ['1e308', 1e308], ['2^53', 2 ** 53]);
    // Near zero: far from zero a double has no fractional part to send.
    if (types.includes('integer')) reject.push(['fraction', Math.min(Math.max(min, 1), max - 1) + 0.5]);
    if (max < INT4_MAX) reject.push(['int4 max + 1', INT4_MAX + 1]);
    edge.push(['maximum', max], ['minimum', min]);
  } else if (types.includes('string')) {
    reject.push(['NUL', 'a\u0000b']);
    if (s.format === 'date-time') {
      for (const d of [
        '0000-01-01T00:00:00Z',
        '-000001-01-01T00:00:00Z',
        '+275760-09-13T00:00:00Z',
        '10000-01-01T00:00:00Z',
      ])
        reject.push([`date ${d}`, d]);
      edge.push(['date 0001', '0001-01-01T00:00:00Z'], ['date 9999', '9999-12-31T23:59:59.999Z']);
    } else if (s.maxLength !== undefined && s.maxLength > 300_000) {
      // Past the body limit (inline base64): the 413 of a body over 5 MB is tested once, not per field.
    } else if (s.maxLength !== undefined) {
      const n = s.maxLength;
      reject.push(['maxLength + 1', 'x'.repeat(n + 1)]);
      // At the limit in 4-byte characters: the most bytes the field lets into its column and index.
      if (s.enum === undefined && n <= 20_000) edge.push(['maxLength in 4-byte chars', '😀'.repeat(n)]);
    } else {
      reject.push(['3 000 characters', 'x'.repeat(3000)]);
    }
  } else if (types.includes('array')) {
    if (s.maxItems !== undefined && s.maxItems < 5000) reject.push(['maxItems + 1', Array(s.maxItems + 1).fill('x')]);
    reject.push(['NUL item', ['\u0000']]);
  } else if (types.length === 0 || types.includes('object')) {
    reject.push(['NUL key', { 'k\u0000': 1 }], ['NUL value', { k: '\u0000' }], ['nested 200 deep', nest(200)]);
    edge.push(['__proto__ key', JSON.parse('{"__proto__":{"polluted":true},"constructor":"x"}')]);
  }
  return { reject, edge };
}

type Expected = [expect: BoundaryCase['expect'], kind: string, value: unknown];

/** A field's values, each with what the server must make of it: the refusals first, then the edges. */
function expectedValues(s: JsonSchema): Expected[] {
  const { reject, edge } = valuesFor(s);
  return [
    ...reject.map(([kind, value]): Expected => ['reject', kind, value]),
    ...edge.map(([kind, value]): Expected => ['edge', kind, value]),
  ];
}

function nest(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** Leaf fields of an object schema, as paths (array items at index 0), with their schemas. */
function fieldsOf(s: JsonSchema, path: (string | number)[] = []): [(string | number)[], JsonSchema][] {
  const objectBranch = [s, ...(s.anyOf ?? []), ...(s.oneOf ?? [])].find((b) => b.properties);
  if (objectBranch?.properties) {
    return Object.entries(objectBranch.properties).flatMap(([key, child]) => [
      [[...path, key], child] as [(string | number)[], JsonSchema],
      ...fieldsOf(child, [...path, key]),
    ]);
  }
  const arrayBranch = [s, ...(s.anyOf ?? [])].find((b) => b.type === 'array' && b.items);
  if (arrayBranch?.items?.properties) return fieldsOf(arrayBranch.items, [...path, 0]);
  if (typeof s.additionalProperties === 'object' && path.length > 0) return [];
  return [];
}

function withValue(base: unknown, path: (string | number)[], value: unknown): unknown {
  const root = structuredClone(base && typeof base === 'object' ? base : {}) as Record<string | number, unknown>;
  let node: Record<string | number, unknown> = root;
  path.forEach((key, i) => {
    if (i === path.length - 1) {
      node[key] = value;
      return;
    }
    const next = node[key];
    const fresh = typeof path[i + 1] === 'number' ? [{}] : {};
    node[key] = next && typeof next === 'object' ? next : fresh;
    node = node[key] as Record<string | number, unknown>;
  });
  return root;
}

/** Node refuses a request head over 16 KB with its own 431 before the app sees it: longer values are not the API's. */
const fitsInUrl = (value: unknown) => encodeURIComponent(String(value)).length <= 8000;

const schemaOf = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as unknown as JsonSchema;

const PROTOTYPE_SEGMENTS = ['__proto__', 'constructor', '%00'];

/** Every boundary case of one endpoint, given a valid path and body. */
export function boundaryCases(endpoint: EndpointDefinition, path: string, validBody: unknown): BoundaryCase[] {
  const cases: BoundaryCase[] = [];
  if (endpoint.body) {
    for (const [fieldPath, fieldSchema] of fieldsOf(schemaOf(endpoint.body))) {
      const name = fieldPath.join('.');
      for (const [expect, kind, value] of expectedValues(fieldSchema))
        cases.push({
          label: `body ${name}: ${kind}`,
          kind,
          expect,
          path,
          body: withValue(validBody, fieldPath, value),
        });
    }
    const plain = JSON.stringify(validBody ?? {});
    for (const encoding of ['gzip', 'br']) {
      cases.push({
        label: `Content-Encoding ${encoding} over a plain body`,
        kind: 'plain body, encoded header',
        expect: 'reject',
        path,
        rawBody: plain,
        headers: { 'content-encoding': encoding },
      });
    }
    cases.push({
      label: 'Content-Encoding compress',
      kind: 'unknown encoding',
      expect: 'reject',
      path,
      rawBody: plain,
      headers: { 'content-encoding': 'compress' },
    });
    cases.push({
      label: 'JSON nested 10 000 deep',
      kind: 'deep nesting',
      expect: 'reject',
      path,
      rawBody: `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
    });
    cases.push({
      label: 'NUL in an unknown key',
      kind: 'NUL key',
      expect: 'reject',
      path,
      body: withValue(validBody, ['\u0000'], 1),
    });
  }
  if (endpoint.query) {
    for (const [fieldPath, fieldSchema] of fieldsOf(schemaOf(endpoint.query))) {
      const name = String(fieldPath[0]);
      if (fieldPath.length !== 1) continue;
      for (const [expect, kind, value] of expectedValues(fieldSchema)) {
        if (typeof value === 'object' || !fitsInUrl(value)) continue;
        cases.push({ label: `query ${name}: ${kind}`, kind, expect, path, query: { [name]: String(value) } });
      }
    }
  }
  cases.push({
    label: 'NUL in an unknown query key',
    kind: 'NUL key',
    expect: 'reject',
    path,
    query: { 'x\u0000': '1' },
  });
  // -0 survives only as text: JSON.stringify and String() both write 0.
  if (endpoint.query?.shape && 'page' in endpoint.query.shape)
    cases.push({ label: 'query page: -0', kind: '-0', expect: 'reject', path, query: { page: '-0' } });
  const params = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  for (const segment of params.length > 0 ? PROTOTYPE_SEGMENTS : []) {
    let odd = endpoint.path;
    for (const param of params) odd = odd.replace(`{${param}}`, segment);
    cases.push({
      label: `path ids ${segment}`,
      kind: 'prototype-like path',
      expect: 'reject',
      path: odd,
      body: validBody,
    });
  }
  return cases;
}
