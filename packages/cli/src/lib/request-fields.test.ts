import { describe, expect, it } from 'vitest';
import { CliError } from './exit-codes.js';
import { describeType, parseAssignments, requestFields } from './request-fields.js';

const update = (pairs: string[]) => parseAssignments(pairs, 'updateCar', 'cars update');
const usageError = (pairs: string[]) => {
  try {
    update(pairs);
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(2);
    return (error as CliError).message;
  }
  throw new Error('expected a usage error');
};

describe('parseAssignments', () => {
  it('converts by the field’s type in the contract: string fields keep digits as text', () => {
    expect(
      update([
        'stockNumber=4711',
        'licensePlate=1234',
        'vin=00123',
        'mileage=51200',
        'isForSale=true',
        'color=null',
        'trim=a=b',
        'mileageUnits=km',
      ]),
    ).toEqual({
      stockNumber: '4711',
      licensePlate: '1234',
      vin: '00123',
      mileage: 51200,
      isForSale: true,
      color: null,
      trim: 'a=b',
      mileageUnits: 'km',
    });
  });

  it('refuses, naming the field and its type, a value that does not fit', () => {
    expect(usageError(['mileage=lots'])).toBe('--set mileage: expected integer or null, got "lots"');
    expect(usageError(['isForSale=yes'])).toBe('--set isForSale: expected boolean, got "yes"');
    expect(usageError(['isForSale=null'])).toBe('--set isForSale: expected boolean, got "null"');
    expect(usageError(['mileageUnits=furlongs'])).toMatch(
      /^--set mileageUnits: expected one of .*km.*, got "furlongs"$/,
    );
    expect(usageError(['year=1967.5'])).toMatch(/expected integer, got "1967.5"/);
  });

  it('refuses an unknown field, listing the fields there are', () => {
    const message = usageError(['colour=red']);
    expect(message).toMatch(/^cars update has no field "colour"\. Fields:/);
    expect(message).toContain('  color (string or null)');
    expect(message).toContain('  mileage (integer or null)');
    expect(usageError(['=x'])).toMatch(/Expected field=value/);
  });

  it('reads every operation’s body from the generated OpenAPI document', () => {
    expect(Object.keys(requestFields('createParkingSpot')).sort()).toEqual(['isActive', 'name', 'parkingZoneId']);
    expect(describeType(requestFields('createParkingZone').capacity ?? {})).toBe('integer or null');
    expect(() => requestFields('noSuchOperation')).toThrow(/no JSON request body/);
  });
});

// Generated from the contract: every field of every JSON request body converts by its declared type, so no
// command's `--set` can guess again.
const document = (await import('@vsf/contract/openapi.json', { with: { type: 'json' } })).default as unknown as {
  paths: Record<string, Record<string, { operationId?: string; requestBody?: unknown }>>;
};
const operations = Object.values(document.paths)
  .flatMap((item) => Object.values(item))
  .filter((op) => op.requestBody && op.operationId)
  .map((op) => op.operationId as string)
  .filter((id) => {
    try {
      return Object.keys(requestFields(id)).length > 0;
    } catch {
      return false; // not a JSON body (none today)
    }
  });

describe.each(operations)('--set for %s', (operationId) => {
  const fields = Object.entries(requestFields(operationId));
  it.each(fields)('%s converts by its declared type', (field, schema) => {
    const set = (raw: string) => parseAssignments([`${field}=${raw}`], operationId, operationId)[field];
    const type = describeType(schema);
    if (schema.enum) expect(set(String(schema.enum[0]))).toBe(schema.enum[0]);
    else if (schema.type === 'string') expect(set('00123')).toBe('00123');
    else if (schema.type === 'integer') {
      expect(set('42')).toBe(42);
      expect(() => set('4.2')).toThrow(`expected ${type}`);
    } else if (schema.type === 'boolean') {
      expect(set('false')).toBe(false);
      expect(() => set('1')).toThrow(`expected ${type}`);
    } else if (schema.type === 'array') {
      const item = schema.items?.type === 'string' ? 'x' : undefined;
      if (item) expect(set('x,y')).toEqual(['x', 'y']);
      expect(set('[]')).toEqual([]);
      expect(() => set('[oops')).toThrow(`expected ${type}`);
    } else if (schema.type === 'object') {
      expect(set('{}')).toEqual({});
      expect(() => set('oops')).toThrow(`expected ${type}`);
    } else throw new Error(`no conversion tested for ${field} (${type}): add one`);
    if (schema.nullable) expect(set('null')).toBeNull();
    else if (schema.type === 'integer' || schema.type === 'boolean') expect(() => set('null')).toThrow(CliError);
  });
});
