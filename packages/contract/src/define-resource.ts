import type { ApiSurface, FieldScope, ScopeRequirement } from './endpoint.js';
import { pathParamNames } from './endpoint.js';
import { DeletedRecord, dataResponse, IdParam, listQueryShape, listResponse } from './schemas/common.js';
import { readScopes, type ScopeResource, writeScopes } from './scopes.js';
import { z } from './zod.js';

/** The five operations a resource gets by name; anything else is declared by hand with `defineEndpoint`. */
export type StandardOperation = 'list' | 'get' | 'create' | 'update' | 'delete';

/** What reading and what writing a resource needs. */
export interface ResourceScopes {
  readonly read: ScopeRequirement;
  readonly write: ScopeRequirement;
}

/** What one standard operation says beyond what its resource implies; each field replaces the derived one. */
export interface OperationOptions {
  readonly summary?: string;
  readonly description?: string;
  /** The success response's description. */
  readonly response?: string;
  readonly scopes?: ScopeRequirement;
  readonly fieldScopes?: readonly FieldScope[];
  readonly references?: readonly string[];
  /** Statuses besides those `errorStatuses` already derives (a path id's 404 needs no declaration). */
  readonly errors?: readonly (409 | 413 | 415)[];
}

/**
 * Where resources live, like Effect's `HttpApiGroup` or a ts-rest router: a group (surface, path prefix,
 * SDK namespace, default scope) or a parent resource, whose item path and namespace its children extend.
 */
export interface ResourceBase<S extends ApiSurface = ApiSurface, B extends string = string> {
  readonly surface: S;
  /** Path that a child's own path is appended to: a group's prefix, a parent's item path. */
  readonly base: B;
  readonly sdk: readonly string[];
  readonly scopes?: ResourceScopes;
  /** The parent record, named in a child's collection summaries and in its 404. */
  readonly parent?: { readonly label: string; readonly noun: string };
}

export interface GroupDeclaration<S extends ApiSurface, P extends string> {
  readonly surface: S;
  readonly prefix: P;
  readonly sdk?: readonly string[];
  readonly scope?: ScopeResource | ResourceScopes;
}

export interface ResourceDeclaration {
  /** The operation ids' noun: `Car` names `listCars`, `getCar`, `createCar`, `updateCar`, `deleteCar`. */
  readonly name: string;
  /** The collection path below the group prefix or the parent's item path: `/cars`, `/audiences`. */
  readonly path: string;
  /** The item's path parameter: `carId`. */
  readonly id: string;
  /** The SDK namespace below the group's or parent's: `client.<…>.cars.list()`. */
  readonly sdk: string;
  /** The record's name in `<label> not found`: `Car`, `Parking zone`. */
  readonly label: string;
  /** The record in summaries (`Get a parking zone`); the label with a lowercase initial unless given. */
  readonly title?: string;
  /** The record in response descriptions (`The zone`, `A page of zones`); the title unless given. */
  readonly noun?: string;
  readonly scope?: ScopeResource | ResourceScopes;
  readonly record: z.ZodType;
  readonly create?: z.ZodType;
  readonly update?: z.ZodType;
  /** Query filters of `list`, besides paging and `updatedAfter`. */
  readonly filters?: z.core.$ZodLooseShape;
  /** The standard operations the resource has; only these are derived. */
  readonly operations: { readonly [K in StandardOperation]?: OperationOptions };
}

type MethodOf = { list: 'get'; get: 'get'; create: 'post'; update: 'patch'; delete: 'delete' };
type OperationId<K extends StandardOperation, N extends string> = K extends 'list' ? `list${N}s` : `${K}${N}`;
type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;
type IdParams<K extends string> = ReturnType<typeof idParams<K>>;
type ListQuery<F> = ReturnType<typeof z.strictObject<typeof listQueryShape & F>>;

type ItemOperation = 'get' | 'update' | 'delete';
type PathOf<K extends StandardOperation, P extends string, I extends string> = K extends ItemOperation
  ? `${P}/{${I}}`
  : P;
type ParamsPart<Path extends string> = [ParamNames<Path>] extends [never]
  ? unknown
  : { readonly params: IdParams<ParamNames<Path>> };
type ResponseSchema<K extends StandardOperation, R extends z.ZodType> = K extends 'list'
  ? ReturnType<typeof listResponse<R>>
  : K extends 'delete'
    ? ReturnType<typeof dataResponse<typeof DeletedRecord>>
    : ReturnType<typeof dataResponse<R>>;
type BodyPart<K extends StandardOperation, D extends ResourceDeclaration> = K extends 'create'
  ? { readonly body: NonNullable<D['create']> }
  : K extends 'update'
    ? { readonly body: NonNullable<D['update']> }
    : unknown;
type QueryPart<K extends StandardOperation, D extends ResourceDeclaration> = K extends 'list'
  ? { readonly query: ListQuery<D['filters'] extends object ? D['filters'] : unknown>; readonly paginated: true }
  : unknown;

/** One derived endpoint, typed as exactly as a hand-written `defineEndpoint` declaration. */
export type StandardEndpoint<
  K extends StandardOperation,
  S extends ApiSurface,
  P extends string,
  D extends ResourceDeclaration,
> = {
  readonly operationId: OperationId<K, D['name']>;
  readonly surface: S;
  readonly method: MethodOf[K];
  readonly path: PathOf<K, P, D['id']>;
  readonly summary: string;
  readonly description?: string;
  readonly scopes: ScopeRequirement;
  readonly sdk: { readonly namespace: readonly string[]; readonly method: K };
  readonly response: {
    readonly status: K extends 'create' ? 201 : 200;
    readonly description: string;
    readonly schema: ResponseSchema<K, D['record']>;
  };
  readonly resourceName?: string;
  readonly fieldScopes?: readonly FieldScope[];
  readonly references?: readonly string[];
  readonly errors?: readonly (409 | 413 | 415)[];
} & ParamsPart<PathOf<K, P, D['id']>> &
  QueryPart<K, D> &
  BodyPart<K, D>;

export type ResourceEndpoints<S extends ApiSurface, P extends string, D extends ResourceDeclaration> = {
  readonly [K in keyof D['operations'] & StandardOperation as OperationId<K, D['name']>]: StandardEndpoint<K, S, P, D>;
};

/** A declared resource: its endpoints, and the base its children and hand-written operations extend. */
export interface Resource<S extends ApiSurface, P extends string, D extends ResourceDeclaration>
  extends ResourceBase<S, `${P}/{${D['id']}}`> {
  readonly path: P;
  readonly label: string;
  readonly noun: string;
  readonly scopes: ResourceScopes;
  readonly endpoints: ResourceEndpoints<S, P, D>;
}

/** `{ <name>: uuid }` path parameters. */
export function idParams<const K extends string>(...names: K[]) {
  return z.strictObject(Object.fromEntries(names.map((n) => [n, IdParam])) as Record<K, typeof IdParam>);
}

function resolveScopes(scope: ScopeResource | ResourceScopes): ResourceScopes {
  return typeof scope === 'string' ? { read: { all: readScopes(scope) }, write: { all: writeScopes(scope) } } : scope;
}

/** Surface, path prefix, SDK namespace and default scope shared by the resources declared in it. */
export function defineGroup<const S extends ApiSurface, const P extends string>(
  group: GroupDeclaration<S, P>,
): ResourceBase<S, P> {
  return {
    surface: group.surface,
    base: group.prefix,
    sdk: group.sdk ?? [],
    ...(group.scope ? { scopes: resolveScopes(group.scope) } : {}),
  };
}

/** `an` before a vowel sound, acronyms (`an RSVP`) included. */
function article(phrase: string): string {
  const acronym = /^[A-Z]{2,}\b/.test(phrase);
  return `${(acronym ? /^[AEFHILMNORSX]/ : /^[aeiou]/i).test(phrase) ? 'an' : 'a'} ${phrase}`;
}

function lowerInitial(label: string): string {
  return /^[A-Z][a-z]/.test(label) ? label[0]?.toLowerCase() + label.slice(1) : label;
}

const methods: MethodOf = { list: 'get', get: 'get', create: 'post', update: 'patch', delete: 'delete' };

/**
 * Declares a resource once and derives its standard endpoints: operation ids and SDK names from `name` and
 * the operation, paths and path params from `path` and `id`, scopes (reads need read, writes read and
 * write), `resourceName`, response schemas from `record`, and summaries and response descriptions that
 * follow the usual wording unless an operation gives its own.
 */
export function defineResource<const S extends ApiSurface, const B extends string, const D extends ResourceDeclaration>(
  base: ResourceBase<S, B>,
  declaration: D,
): Resource<S, `${B}${D['path']}`, D> {
  const path = `${base.base}${declaration.path}` as `${B}${D['path']}`;
  const scope = declaration.scope ?? base.scopes;
  if (!scope) throw new Error(`${declaration.name}: no scope on the resource or its group`);
  const scopes = resolveScopes(scope);
  const title = declaration.title ?? lowerInitial(declaration.label);
  const noun = declaration.noun ?? title;
  const sdk = [...base.sdk, declaration.sdk];
  const parent = base.parent;
  const endpoints: Record<string, unknown> = {};
  for (const [operation, options] of Object.entries(declaration.operations) as [
    StandardOperation,
    OperationOptions,
  ][]) {
    const item = operation === 'get' || operation === 'update' || operation === 'delete';
    const operationPath = item ? `${path}/{${declaration.id}}` : path;
    const names = pathParamNames(operationPath);
    const operationId = operation === 'list' ? `list${declaration.name}s` : `${operation}${declaration.name}`;
    const defaults = {
      list: {
        summary: parent ? `List ${article(parent.noun)}’s ${title}s` : `List ${title}s`,
        response: `A page of ${noun}s`,
        schema: listResponse(declaration.record),
      },
      get: { summary: `Get ${article(title)}`, response: `The ${noun}`, schema: dataResponse(declaration.record) },
      create: {
        summary: `Create ${article(title)}`,
        response: `The ${noun}`,
        schema: dataResponse(declaration.record),
      },
      update: {
        summary: `Update ${article(title)}`,
        response: `The ${noun}`,
        schema: dataResponse(declaration.record),
      },
      delete: { summary: `Delete ${article(title)}`, response: 'Deleted', schema: dataResponse(DeletedRecord) },
    }[operation];
    const body = operation === 'create' ? declaration.create : operation === 'update' ? declaration.update : undefined;
    const resourceName = item ? declaration.label : parent?.label;
    endpoints[operationId] = {
      operationId,
      surface: base.surface,
      method: methods[operation],
      path: operationPath,
      summary: options.summary ?? defaults.summary,
      ...(options.description ? { description: options.description } : {}),
      scopes: options.scopes ?? (operation === 'list' || operation === 'get' ? scopes.read : scopes.write),
      ...(options.fieldScopes ? { fieldScopes: options.fieldScopes } : {}),
      ...(options.references ? { references: options.references } : {}),
      sdk: { namespace: sdk, method: operation },
      ...(names.length > 0 ? { params: idParams(...names) } : {}),
      ...(operation === 'list' ? { query: z.strictObject({ ...listQueryShape, ...declaration.filters }) } : {}),
      ...(body ? { body } : {}),
      response: {
        status: operation === 'create' ? 201 : 200,
        description: options.response ?? defaults.response,
        schema: defaults.schema,
      },
      ...(operation === 'list' ? { paginated: true } : {}),
      ...(resourceName ? { resourceName } : {}),
      ...(options.errors ? { errors: options.errors } : {}),
    };
  }
  return {
    surface: base.surface,
    base: `${path}/{${declaration.id}}`,
    sdk,
    scopes,
    parent: { label: declaration.label, noun },
    path,
    label: declaration.label,
    noun,
    endpoints: endpoints as ResourceEndpoints<S, `${B}${D['path']}`, D>,
  };
}
