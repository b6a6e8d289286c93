import { describe, expect, it } from 'vitest';
import type { EndpointDefinition } from '../endpoint.js';
import { adminEndpoints, apiEndpoints } from '../endpoints/index.js';
import type { JsonSchema } from '../json-schema.js';
import { z } from '../zod.js';
import { INT4_MAX, INT4_MIN, isStorableInstant } from './bounds.js';
import { ListQuery, TimestampWithOffset } from './common.js';

const SAFE_INT = Number.MAX_SAFE_INTEGER;

/** Every problem of one input schema: a string, integer or array without the bounds the database needs. */
function unboundedFields(schema: z.ZodType): string[] {
  const root = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const problems: string[] = [];
  const visit = (s: JsonSchema, path: string): void => {
    if (s.$ref) {
      const name = s.$ref.replace(/^#\/\$defs\//, '');
      const target = root.$defs?.[name];
      if (!target) problems.push(`${path}: unresolved ${s.$ref}`);
      else visit(target, path);
      return;
    }
    for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) visit(branch, path);
    const types = s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type];
    const bounded = s.enum !== undefined || s.const !== undefined;
    if (types.includes('string') && !bounded && s.format !== 'uuid' && s.maxLength === undefined)
      problems.push(`${path}: string without maxLength`);
    if (types.includes('integer')) {
      const limit = s.format === 'int64' ? SAFE_INT : INT4_MAX;
      const floor = s.format === 'int64' ? -SAFE_INT : INT4_MIN;
      if (s.minimum === undefined || s.maximum === undefined || s.minimum < floor || s.maximum > limit)
        problems.push(
          `${path}: integer outside ${s.format === 'int64' ? 'int64' : 'int4'} (${s.minimum}..${s.maximum})`,
        );
    }
    if (types.includes('number') && (s.maximum === undefined || s.minimum === undefined))
      problems.push(`${path}: number without minimum/maximum`);
    if (types.includes('array')) {
      if (s.maxItems === undefined) problems.push(`${path}: array without maxItems`);
      if (s.items) visit(s.items, `${path}[]`);
      for (const [i, item] of (s.prefixItems ?? []).entries()) visit(item, `${path}[${i}]`);
    }
    for (const [key, property] of Object.entries(s.properties ?? {})) visit(property, path ? `${path}.${key}` : key);
    if (s.propertyNames) visit(s.propertyNames, `${path}{key}`);
    if (typeof s.additionalProperties === 'object') visit(s.additionalProperties, `${path}{value}`);
  };
  visit(root, '');
  return problems;
}

const all = [...Object.values(apiEndpoints), ...Object.values(adminEndpoints)] as EndpointDefinition[];

describe('input bounds', () => {
  it('every string, integer and array of every endpoint’s params, query and body fits the database', () => {
    const problems = all.flatMap((e) =>
      (['params', 'query', 'body'] as const).flatMap((part) => {
        const schema = e[part];
        return schema ? unboundedFields(schema).map((p) => `${e.operationId} ${part} ${p}`) : [];
      }),
    );
    expect(problems).toEqual([]);
  });

  it('finds an unbounded field, so a new one cannot land', () => {
    const loose = z.strictObject({
      name: z.string(),
      count: z.number().int(),
      ratio: z.number(),
      tags: z.array(z.string().max(5)),
      meta: z.record(z.string(), z.unknown()),
      nested: z.strictObject({
        big: z
          .number()
          .int()
          .min(0)
          .max(2 ** 31),
      }),
    });
    expect(unboundedFields(loose)).toEqual([
      'name: string without maxLength',
      `count: integer outside int4 (${-SAFE_INT}..${SAFE_INT})`,
      'ratio: number without minimum/maximum',
      'tags: array without maxItems',
      'meta{key}: string without maxLength',
      `nested.big: integer outside int4 (0..${2 ** 31})`,
    ]);
  });
});

describe('client timestamps', () => {
  it.each([
    '0000-01-01T00:00:00Z',
    '0000-12-31T23:00:00-05:00',
    '0001-01-01T00:00:00+01:00',
    '-000001-01-01T00:00:00Z',
    '+275760-09-13T00:00:00Z',
    '10000-01-01T00:00:00Z',
  ])('refuses %s, which the database or the sync cannot hold', (value) => {
    expect(TimestampWithOffset.safeParse(value).success).toBe(false);
    expect(ListQuery.safeParse({ updatedAfter: value }).success).toBe(false);
  });

  it.each(['0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z', '2026-01-15T10:30:00+01:00'])('accepts %s', (value) => {
    expect(TimestampWithOffset.safeParse(value).success).toBe(true);
    expect(ListQuery.safeParse({ updatedAfter: value }).success).toBe(true);
  });

  it('refuses a Date outside the range from typed clients', () => {
    expect(isStorableInstant(new Date(Date.parse('+275760-09-13T00:00:00Z')))).toBe(false);
    expect(ListQuery.safeParse({ updatedAfter: new Date(-62198755200000) }).success).toBe(false);
  });
});
