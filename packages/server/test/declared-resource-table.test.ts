import { defineGroup, defineResource, field, fieldTable, Int4, Int8, LongText, NameText, Uuid } from '@vsf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addResourceColumns } from '../src/db/migrations/resource-columns.js';
import { createResourceTable } from '../src/db/migrations/resource-table.js';
import { startTestServer, type TestServer } from '../src/testing/start-test-server.js';

// A resource as a contributor adds one: a declaration with a field table, and a migration that is one
// call on it. The table gets the declaration's name (the plural rule), columns, nulls, defaults and
// references, plus the shape, row count and events every resource table has.
const keyBoxFields = fieldTable('V1KeyBox', {
  name: field(NameText.min(1), { doc: 'What staff call the box' }),
  locationId: field(Uuid, { nullable: true, references: 'locations', filter: 'Only boxes at this location' }),
  capacity: field(Int4.min(1), { default: 20, doc: 'Hooks in the box' }),
  notes: field(LongText, { nullable: true }),
  insuredCents: field(Int8, { nullable: true }),
});
const keyBoxes = defineResource(defineGroup({ surface: 'v1', prefix: '', scope: 'locations' }), {
  name: 'KeyBox',
  path: '/key-boxes',
  ...keyBoxFields,
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await createResourceTable(server.db, keyBoxes);
});
afterAll(async () => {
  await server?.db.schema.dropTableIfExists('key_boxes');
  await server?.close();
});

const columns = async () => {
  const rows: { column_name: string; data_type: string; is_nullable: string; column_default: string | null }[] =
    await server.db
      .select('column_name', 'data_type', 'is_nullable', 'column_default')
      .from('information_schema.columns')
      .where({ table_name: 'key_boxes' })
      .whereRaw('table_schema = current_schema()')
      .orderBy('ordinal_position');
  return rows;
};

describe('createResourceTable(knex, resource)', () => {
  it('names the table by the plural rule and the operations alike', () => {
    expect(keyBoxes.table).toBe('key_boxes');
    expect(Object.keys(keyBoxes.endpoints)).toContain('listKeyBoxes');
  });

  it('creates every field of the record as a column of the type, nullability and default declared', async () => {
    const byName = Object.fromEntries((await columns()).map((c) => [c.column_name, c]));
    expect(Object.keys(byName)).toEqual([
      'id',
      'team_id',
      'name',
      'location_id',
      'capacity',
      'notes',
      'insured_cents',
      'created_at',
      'updated_at',
    ]);
    expect(byName.name).toMatchObject({ data_type: 'text', is_nullable: 'NO' });
    expect(byName.location_id).toMatchObject({ data_type: 'uuid', is_nullable: 'YES' });
    expect(byName.capacity).toMatchObject({ data_type: 'integer', is_nullable: 'NO', column_default: '20' });
    expect(byName.notes).toMatchObject({ data_type: 'text', is_nullable: 'YES' });
    expect(byName.insured_cents).toMatchObject({ data_type: 'bigint', is_nullable: 'YES' });
    expect(byName.created_at?.data_type).toBe('timestamp with time zone');
  });

  it('refers to the declared resource, and keeps the row count and the events feed', async () => {
    const triggers: { trigger_name: string }[] = await server.db
      .select('trigger_name')
      .from('information_schema.triggers')
      .where({ event_object_table: 'key_boxes' });
    const names = new Set(triggers.map((t) => t.trigger_name));
    expect([...names].sort()).toEqual([
      'key_boxes_count_deletes',
      'key_boxes_count_inserts',
      'key_boxes_record_events',
    ]);
    const team = await server.createTeam('Key box team');
    const now = new Date().toISOString();
    const unknownLocation = server.db('key_boxes').insert({
      id: crypto.randomUUID(),
      team_id: team.id,
      name: 'Front desk',
      location_id: crypto.randomUUID(),
      created_at: now,
      updated_at: now,
    });
    await expect(unknownLocation).rejects.toThrow(/foreign key/);
  });

  it('adds a field declared later only where it is missing, so old and new databases agree', async () => {
    await addResourceColumns(server.db, keyBoxes, 'notes');
    expect((await columns()).filter((c) => c.column_name === 'notes')).toHaveLength(1);
    await server.db.schema.alterTable('key_boxes', (t) => t.dropColumn('notes'));
    await addResourceColumns(server.db, keyBoxes, 'notes');
    expect((await columns()).find((c) => c.column_name === 'notes')).toMatchObject({ is_nullable: 'YES' });
    await expect(addResourceColumns(server.db, keyBoxes, 'colour')).rejects.toThrow(/no field "colour"/);
  });
});
