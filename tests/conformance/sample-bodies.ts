import type { JsonSchema } from '@vsf/contract';
import { apiEndpoints, type EndpointDefinition, pathParamNames } from '@vsf/contract';
import { z } from 'zod';

/** What the contract declares of one resource's standard operations, by SDK namespace (as server and mock read it). */
export interface ContractResource {
  namespace: string;
  itemParam: string;
  parentParams: string[];
  operations: Partial<Record<'list' | 'get' | 'create' | 'update' | 'delete', EndpointDefinition>>;
}

export function contractResources(): ContractResource[] {
  const byNamespace = new Map<string, ContractResource['operations']>();
  for (const endpoint of Object.values(apiEndpoints) as EndpointDefinition[]) {
    if (!['list', 'get', 'create', 'update', 'delete'].includes(endpoint.sdk.method)) continue;
    const namespace = endpoint.sdk.namespace.join('.');
    byNamespace.set(namespace, { ...byNamespace.get(namespace), [endpoint.sdk.method]: endpoint });
  }
  return [...byNamespace].flatMap(([namespace, operations]) => {
    const item = operations.get ?? operations.update ?? operations.delete;
    const collection = operations.list ?? operations.create;
    if (!item?.resourceName || !collection) return [];
    return [
      {
        namespace,
        itemParam: pathParamNames(item.path).at(-1) as string,
        parentParams: pathParamNames(collection.path),
        operations,
      },
    ];
  });
}

let counter = 0;

/**
 * A value the schema accepts, built from its JSON Schema alone: required fields only, the first enum value,
 * the lowest number, `sampleN` for text. Ids go through `reference(field)`, which creates the record named.
 */
export async function sampleOf(
  schema: JsonSchema,
  field: string,
  reference: (field: string) => Promise<string | undefined>,
): Promise<unknown> {
  const alternatives = (schema.anyOf ?? schema.oneOf)?.filter((s) => s.type !== 'null');
  if (alternatives?.[0]) return sampleOf(alternatives[0], field, reference);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const name of schema.required ?? []) {
        const sample = await sampleOf(schema.properties?.[name] ?? {}, name, reference);
        if (sample === undefined) return undefined;
        value[name] = sample;
      }
      return value;
    }
    case 'array': {
      const items = [];
      for (let i = 0; i < (schema.minItems ?? 0); i++) items.push(await sampleOf(schema.items ?? {}, field, reference));
      return items;
    }
    case 'integer':
    case 'number':
      return schema.minimum ?? Math.min(1, schema.maximum ?? 1);
    case 'boolean':
      return true;
    case 'string':
      if (schema.format === 'uuid') return reference(field);
      if (schema.format === 'email') return `sample${++counter}@example.com`;
      if (schema.format === 'date-time') return new Date().toISOString();
      if (schema.format === 'uri') return 'https://example.com/sample';
      return `sample${++counter}`;
    default:
      return undefined;
  }
}

/** The JSON Schema of what a client sends. */
export const inputSchemaOf = (schema: z.ZodType): JsonSchema =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

/** A field an update can change to a plain text value, to see the change come back. */
export function plainTextField(schema: JsonSchema): string | undefined {
  return Object.entries(schema.properties ?? {}).find(([, property]) => {
    const alternatives = (property.anyOf ?? [property]).filter((s) => s.type !== 'null');
    const only = alternatives[0];
    return alternatives.length === 1 && only?.type === 'string' && !only.format && !only.enum && !('pattern' in only);
  })?.[0];
}
