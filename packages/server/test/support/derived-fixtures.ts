import type { JsonSchema } from '@vsf/contract';
import { type StandardResource, standardResources } from '@vsf/contract';
import { z } from 'zod';
import type { ApiCaller } from './api-caller.js';

// Fixtures made from the contract alone, for a resource no one wrote fixtures for: a create body from the
// body schema (its examples, else the smallest value its bounds allow; a reference as `{{fieldId}}`), an
// update that changes one optional field, and a record factory for its item's path parameter.

/** A value the schema accepts: its example, else the first enum value, else one at the low end of its bounds. */
function sampleOf(schema: JsonSchema, name: string): unknown {
  if (schema.example !== undefined) return schema.example;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.anyOf) return sampleOf(schema.anyOf.find((s) => s.type !== 'null') ?? {}, name);
  if (schema.enum?.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return Math.min(Math.max(schema.minimum ?? 1, 1), schema.maximum ?? Number.MAX_SAFE_INTEGER);
    case 'boolean':
      return true;
    case 'array':
      return schema.minItems ? [sampleOf(schema.items ?? {}, name)] : [];
    case 'object':
      return objectSample(schema);
    default:
      if (schema.format === 'date-time') return '2030-01-01T10:00:00Z';
      if (schema.format === 'email') return 'fixture@example.com';
      return `Fixture ${name} ${Math.random().toString(36).slice(2, 8)}`.slice(0, schema.maxLength ?? 200);
  }
}

function objectSample(schema: JsonSchema): Record<string, unknown> {
  return Object.fromEntries(
    (schema.required ?? []).map((name) => [name, sampleOf(schema.properties?.[name] ?? {}, name)]),
  );
}

const inputSchema = (body: unknown) =>
  z.toJSONSchema(body as z.ZodType, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

/** A create body of the resource: every required field, references as placeholders the world fills. */
export function derivedCreateBody(resource: StandardResource): Record<string, unknown> {
  const create = resource.endpoints.create;
  if (!create?.body) throw new Error(`${resource.namespace} has no create body to derive a fixture from`);
  const references = new Set(create.references ?? []);
  const schema = inputSchema(create.body);
  const body = objectSample(schema);
  for (const field of references) if (field in body || schema.required?.includes(field)) body[field] = `{{${field}}}`;
  return body;
}

/** An update body that changes one optional field that refers to nothing. */
function derivedUpdateBody(resource: StandardResource): Record<string, unknown> {
  const update = resource.endpoints.update;
  if (!update?.body) return {};
  const references = new Set(update.references ?? []);
  const schema = inputSchema(update.body);
  const [name, property] =
    Object.entries(schema.properties ?? {}).find(([field, s]) => !references.has(field) && s.format !== 'uuid') ?? [];
  return name && property ? { [name]: sampleOf(property, name) } : {};
}

/** `{{param}}` in a path, filled from the world's ids. */
const pathWith = (path: string, ids: Record<string, string>) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? `{${name}}`);

/** Every resource of the contract that the hand-written fixtures do not cover, with its derived fixtures. */
export function derivedFixtures(known: ReadonlySet<string>) {
  const fixtures: Record<string, { body?: unknown; noRecordIds?: true }> = {};
  for (const resource of standardResources().values()) {
    const { list, get, create, update, delete: remove } = resource.endpoints;
    if ([list, get, create, update, remove].every((e) => !e || known.has(e.operationId))) continue;
    const parentless = resource.parentParams.length === 0;
    if (list) fixtures[list.operationId] = parentless ? { noRecordIds: true } : {};
    if (get) fixtures[get.operationId] = {};
    if (remove) fixtures[remove.operationId] = {};
    if (update) fixtures[update.operationId] = { body: derivedUpdateBody(resource) };
    if (create) {
      const body = derivedCreateBody(resource);
      const refersToRecords = parentless && !JSON.stringify(body).includes('{{');
      fixtures[create.operationId] = { body, ...(refersToRecords ? { noRecordIds: true as const } : {}) };
    }
  }
  return fixtures;
}

/** A record factory (`[itemParam, make]`) for every resource with a create whose item no factory makes. */
export function derivedRecordFactories(
  known: ReadonlySet<string>,
  fill: (value: unknown, ids: Record<string, string>) => unknown,
): [string, (api: ApiCaller, ids: Record<string, string>) => Promise<string>][] {
  return [...standardResources().values()]
    .filter((resource) => resource.endpoints.create && !known.has(resource.itemParam))
    .map((resource) => [
      resource.itemParam,
      async (api, ids) => {
        const create = resource.endpoints.create as NonNullable<typeof resource.endpoints.create>;
        const res = await api('POST', pathWith(create.path, ids), { body: fill(derivedCreateBody(resource), ids) });
        if (res.status !== 201)
          throw new Error(`derived fixture for ${resource.namespace}: ${res.status} ${JSON.stringify(res.body)}`);
        return (res.body as { data: { id: string } }).data.id;
      },
    ]);
}
