import type { ApiSurface, ScopeRequirement } from './endpoint.js';
import { pathParamNames } from './endpoint.js';
import { snakeCase } from './record-columns.js';
import type {
  ActionOptions,
  GroupDeclaration,
  OperationOptions,
  ResourceBase,
  ResourceDeclaration,
  ResourceScopes,
  StandardOperation,
} from './resource-declaration.js';
import type { IdOf, ResourceEndpoints } from './resource-endpoint-types.js';
import { resourceNames, standardWording } from './resource-wording.js';
import { DeletedRecord, dataResponse, IdParam, listQueryShape, listResponse } from './schemas/common.js';
import { binaryUploadQuery } from './schemas/image-upload.js';
import { readScopes, type ScopeResource, writeScopes } from './scopes.js';
import { z } from './zod.js';

/** A declared resource: its endpoints, and the base its child resources extend. */
export interface Resource<S extends ApiSurface, P extends string, D extends ResourceDeclaration, X extends string>
  extends ResourceBase<S, `${P}/{${IdOf<D>}}`, X> {
  readonly path: P;
  readonly label: string;
  readonly scopes: ResourceScopes;
  /** Where the server stores the records: the plural, snake_case (`KeyBox` → `key_boxes`). */
  readonly table: string;
  readonly record: D['record'];
  /** The field table the resource was declared with, if any: a migration creates its columns from it. */
  readonly fields: D['fields'];
  readonly endpoints: ResourceEndpoints<S, P, D, X>;
}

/** `{ <name>: uuid }` path parameters. */
export function idParams<const K extends string>(...names: K[]) {
  return z.strictObject(Object.fromEntries(names.map((n) => [n, IdParam])) as Record<K, typeof IdParam>);
}

function resolveScopes(scope: ScopeResource | ResourceScopes): ResourceScopes {
  return typeof scope === 'string' ? { read: { all: readScopes(scope) }, write: { all: writeScopes(scope) } } : scope;
}

/** Surface, path prefix, SDK namespace and default scope shared by the resources declared in it. */
export function defineGroup<const S extends ApiSurface, const P extends string, const X extends string = ''>(
  group: GroupDeclaration<S, P, X>,
): ResourceBase<S, P, X> {
  return {
    surface: group.surface,
    operationPrefix: group.operationPrefix ?? ('' as X),
    base: group.prefix,
    sdk: group.sdk ?? [],
    ...(group.scope ? { scopes: resolveScopes(group.scope) } : {}),
  };
}

const methods = { list: 'get', get: 'get', create: 'post', update: 'patch', delete: 'delete' } as const;
const itemOperations: readonly StandardOperation[] = ['get', 'update', 'delete'];
const standardOperations: readonly StandardOperation[] = ['list', 'get', 'create', 'update', 'delete'];

/**
 * Declares a resource once and derives its endpoints: operation ids and SDK names from `name` and the
 * operation, paths and path params from `path` and `id`, scopes (reads need read; writes read and write),
 * `resourceName`, response schemas from `record`, and summaries and response descriptions in the usual
 * wording unless an operation gives its own. Each endpoint is an ordinary `EndpointDefinition`.
 */
export function defineResource<
  const S extends ApiSurface,
  const B extends string,
  const X extends string,
  const D extends ResourceDeclaration,
>(base: ResourceBase<S, B, X>, declaration: D): Resource<S, `${B}${D['path']}`, D, X> {
  const { name, record } = declaration;
  const path = `${base.base}${declaration.path}` as `${B}${D['path']}`;
  const parent = base.parent;
  const names = resourceNames(declaration, parent);
  const { label, noun } = names;
  const itemPath = `${path}/{${names.id}}`;
  const scope = declaration.scope ?? base.scopes;
  if (!scope) throw new Error(`${name}: no scope on the resource or its group`);
  const scopes = resolveScopes(scope);
  const sdk = [...base.sdk, names.sdk];

  const prefixed = (operationId: string) =>
    base.operationPrefix
      ? `${base.operationPrefix}${operationId.charAt(0).toUpperCase()}${operationId.slice(1)}`
      : operationId;
  const operations = declaration.operations ?? standardOperations;
  for (const [operation, body] of [
    ['create', declaration.createBody],
    ['update', declaration.updateBody],
  ] as const) {
    if (operations.includes(operation) && !body)
      throw new Error(`${name}: \`${operation}\` needs \`${operation}Body\``);
  }
  for (const operation of standardOperations) {
    if (declaration[operation] && !operations.includes(operation))
      throw new Error(`${name}: options for \`${operation}\`, which is not among its operations`);
  }

  const endpoint = (
    operationId: string,
    method: string,
    operationPath: string,
    sdkMethod: string,
    options: OperationOptions,
    derived: { summary: string; response: string; status: 200 | 201; schema: z.ZodType; scopes: ScopeRequirement },
  ) => {
    const params = pathParamNames(operationPath);
    const resourceName = operationPath === path ? parent?.label : label;
    return {
      operationId: prefixed(operationId),
      surface: base.surface,
      method,
      path: operationPath,
      summary: options.summary ?? derived.summary,
      ...(options.description ? { description: options.description } : {}),
      scopes: options.scopes ?? derived.scopes,
      ...(options.fieldScopes ? { fieldScopes: options.fieldScopes } : {}),
      ...(options.references ? { references: options.references } : {}),
      sdk: { namespace: sdk, method: sdkMethod },
      ...(params.length > 0 ? { params: idParams(...params) } : {}),
      response: { status: derived.status, description: options.response ?? derived.response, schema: derived.schema },
      ...(resourceName ? { resourceName } : {}),
      ...(options.errors ? { errors: options.errors } : {}),
      ...(options.inUse
        ? { inUse: options.inUse, errors: [...new Set([...(options.errors ?? []), 409 as const])] }
        : {}),
    };
  };

  const standard = (operation: StandardOperation) => {
    const writes = operation === 'create' || operation === 'update';
    const options = {
      ...(writes && declaration.references ? { references: declaration.references } : {}),
      ...declaration[operation],
    };
    const derived = standardWording(operation, names);
    const body = { create: declaration.createBody, update: declaration.updateBody }[operation as 'create' | 'update'];
    const list = operation === 'list';
    return {
      ...endpoint(
        list ? `list${names.plural}` : `${operation}${name}`,
        methods[operation],
        itemOperations.includes(operation) ? itemPath : path,
        operation,
        options,
        {
          ...derived,
          status: operation === 'create' ? 201 : 200,
          schema: list ? listResponse(record) : dataResponse(operation === 'delete' ? DeletedRecord : record),
          scopes: list || operation === 'get' ? scopes.read : scopes.write,
        },
      ),
      ...(list ? { query: z.strictObject({ ...listQueryShape, ...declaration.filters }), paginated: true } : {}),
      ...(body ? { body } : {}),
      ...(body && options.binaryUpload ? { binaryUpload: { query: binaryUploadQuery(body as z.ZodObject) } } : {}),
    };
  };

  const action = ([verb, options]: [string, ActionOptions]) =>
    endpoint(`${verb}${name}`, 'post', `${itemPath}/${verb}`, verb, options, {
      summary: options.summary,
      response: `The ${noun}`,
      status: 200,
      schema: dataResponse(record),
      scopes: scopes.write,
    });

  const endpoints = Object.fromEntries(
    [
      ...operations.map((operation) => standard(operation)),
      ...Object.entries(declaration.actions ?? {}).map(action),
    ].map((e) => [e.operationId, e]),
  );

  return {
    surface: base.surface,
    operationPrefix: base.operationPrefix,
    base: itemPath as `${B}${D['path']}/{${IdOf<D>}}`,
    sdk,
    scopes,
    parent: { label, noun },
    path,
    label,
    table: snakeCase(names.plural).replace(/^_/, ''),
    record,
    fields: declaration.fields as D['fields'],
    endpoints: endpoints as ResourceEndpoints<S, `${B}${D['path']}`, D, X>,
  };
}
