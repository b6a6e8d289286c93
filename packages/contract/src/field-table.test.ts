import { getOpenApiMetadata } from '@asteasolutions/zod-to-openapi';
import { describe, expect, it } from 'vitest';
import { field, fieldTable } from './field-table.js';
import * as contract from './index.js';
import { buildOpenApiDocument } from './openapi/build-openapi-document.js';
import { Int4, NameText } from './schemas/bounds.js';
import { Uuid } from './schemas/common.js';
import { standardResources } from './standard-resources.js';
import { z } from './zod.js';

type Table = ReturnType<typeof fieldTable>;
const tables = (Object.entries(contract) as [string, unknown][]).filter(
  (entry): entry is [string, Table] =>
    typeof entry[1] === 'object' && entry[1] !== null && 'referenceTargets' in entry[1],
);

describe('fieldTable', () => {
  const box = fieldTable('V1Box', {
    name: field(NameText.min(1), { doc: 'What staff call it' }),
    locationId: field(Uuid, { nullable: true, references: 'locations', filter: 'Only boxes at this location' }),
    capacity: field(Int4.min(1), { default: 20 }),
    serial: field(NameText, { createOnly: true }),
    openedAt: field(z.string(), { nullable: true, readOnly: true }),
  });

  it('derives the record: id, teamId, every field, the timestamps', () => {
    expect(Object.keys(box.record.shape)).toEqual([
      'id',
      'teamId',
      'name',
      'locationId',
      'capacity',
      'serial',
      'openedAt',
      'createdAt',
      'updatedAt',
    ]);
  });

  it('requires in a create what is neither nullable nor defaulted, and takes nothing the server sets', () => {
    expect(Object.keys(box.createBody.shape)).toEqual(['name', 'locationId', 'capacity', 'serial']);
    expect(box.createBody.safeParse({ name: 'Front', serial: 'S1' }).success).toBe(true);
    expect(box.createBody.safeParse({ serial: 'S1' }).success).toBe(false);
    expect(box.createBody.safeParse({ name: 'Front', serial: 'S1', openedAt: null }).success).toBe(false);
  });

  it('says a default in words, not as OpenAPI `default` (which generators read as always present)', () => {
    const schemas = buildOpenApiDocument('v1').components?.schemas as Record<
      string,
      { properties: Record<string, { default?: unknown; description?: string }>; required?: string[] }
    >;
    const create = schemas.V1LocationCreate;
    expect(create?.properties.isActive?.default).toBeUndefined();
    expect(create?.properties.isActive?.description).toMatch(/Defaults to `true`\.$/);
    expect(create?.required).toEqual(['name']);
  });

  it('makes every update field optional, without the create-only ones', () => {
    expect(Object.keys(box.updateBody.shape)).toEqual(['name', 'locationId', 'capacity']);
    expect(box.updateBody.safeParse({}).success).toBe(true);
    expect(box.updateBody.safeParse({ locationId: null }).success).toBe(true);
    expect(box.updateBody.safeParse({ name: '' }).success).toBe(false);
  });

  it('derives the filters and the references', () => {
    expect(Object.keys(box.filters)).toEqual(['locationId']);
    expect(box.references).toEqual(['locationId']);
    expect(box.referenceTargets).toEqual({ locationId: 'locations' });
  });

  it('leaves a named component as it is: a field’s doc and filter text do not rewrite it everywhere', () => {
    const Named = z.enum(['a', 'b']).openapi('KeptForTheTest', { description: 'The component’s own words' });
    const table = fieldTable('V1Kept', { kind: field(Named, { doc: 'A field’s words', filter: 'Only this kind' }) });
    const document = z.toJSONSchema(z.object({ shape: table.record, filter: z.object(table.filters) }), {
      unrepresentable: 'any',
    });
    expect(JSON.stringify(document)).not.toContain('A field’s words');
    expect(getOpenApiMetadata(Named)?.description).toBe('The component’s own words');
  });

  it('makes a named component nullable in the field only, never the component', () => {
    const Named = z.enum(['a', 'b']).openapi('NullableInTheField');
    const table = fieldTable('V1Either', { kind: field(Named, { nullable: true }) });
    expect(table.record.shape.kind.safeParse(null).success).toBe(true);
    expect(Named.safeParse(null).success).toBe(false);
  });
});

describe('the contract’s field tables', () => {
  it('are found (so the checks below check something)', () => {
    expect(tables.length).toBeGreaterThanOrEqual(5);
  });

  it.each(tables)('%s: each reference points to a resource whose id the field is named after', (_, table) => {
    for (const [fieldName, target] of Object.entries(table.referenceTargets)) {
      const resource = standardResources().get(target);
      expect(resource, `${fieldName} → ${target}: no such resource`).toBeDefined();
      expect(resource?.itemParam).toBe(fieldName);
    }
  });
});
