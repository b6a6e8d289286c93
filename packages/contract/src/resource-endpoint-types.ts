import type { ApiSurface, FieldScope, ScopeRequirement } from './endpoint.js';
import type { PluralOf } from './plural.js';
import type { ResourceDeclaration, StandardOperation } from './resource-declaration.js';
import type { DeletedRecord, dataResponse, IdParam, listQueryShape, listResponse } from './schemas/common.js';
import type { z } from './zod.js';

// The types `defineResource` gives what it derives: as exact as a hand-written `defineEndpoint` literal, so
// the server's handler map and the SDK infer the same params, query, body and response from either.

type MethodOf = { list: 'get'; get: 'get'; create: 'post'; update: 'patch'; delete: 'delete' };
type ItemOperation = 'get' | 'update' | 'delete';
type Prefixed<X extends string, V extends string> = X extends '' ? V : `${X}${Capitalize<V>}`;
/** The declared `plural`, else the plural rule's. */
type PluralName<D extends ResourceDeclaration> = D extends { readonly plural: infer P extends string }
  ? P
  : PluralOf<D['name']>;
type OperationId<K extends StandardOperation, D extends ResourceDeclaration, X extends string> = Prefixed<
  X,
  K extends 'list' ? `list${PluralName<D>}` : `${K}${D['name']}`
>;
/** The declared operations, or all five. */
export type OperationsOf<D extends ResourceDeclaration> = D extends { readonly operations: readonly (infer K)[] }
  ? K
  : StandardOperation;
type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;

/** `{ <name>: uuid }`, as `idParams` builds it. */
export type IdParams<K extends string> = ReturnType<typeof z.strictObject<Record<K, typeof IdParam>>>;

/** The item's path parameter: the declared `id`, else `<name>Id`. */
export type IdOf<D extends ResourceDeclaration> = D extends { readonly id: infer I extends string }
  ? I
  : `${Uncapitalize<D['name']>}Id`;

type ListQuery<F> = ReturnType<typeof z.strictObject<typeof listQueryShape & F>>;
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
  ? { readonly body: NonNullable<D['createBody']> }
  : K extends 'update'
    ? { readonly body: NonNullable<D['updateBody']> }
    : unknown;
type QueryPart<K extends StandardOperation, D extends ResourceDeclaration> = K extends 'list'
  ? { readonly query: ListQuery<D['filters'] extends object ? D['filters'] : unknown>; readonly paginated: true }
  : unknown;

/** What every derived endpoint has besides its operation's params, query and body. */
interface DerivedEndpoint<
  Id extends string,
  S extends ApiSurface,
  M extends string,
  Path extends string,
  Sdk extends string,
> {
  readonly operationId: Id;
  readonly surface: S;
  readonly method: M;
  readonly path: Path;
  readonly summary: string;
  readonly description?: string;
  readonly scopes: ScopeRequirement;
  readonly sdk: { readonly namespace: readonly string[]; readonly method: Sdk };
  readonly resourceName?: string;
  readonly fieldScopes?: readonly FieldScope[];
  readonly references?: readonly string[];
  readonly errors?: readonly (409 | 413 | 415)[];
  readonly inUse?: string;
}

/** One derived standard endpoint. */
export type StandardEndpoint<
  K extends StandardOperation,
  S extends ApiSurface,
  P extends string,
  D extends ResourceDeclaration,
  X extends string,
> = DerivedEndpoint<OperationId<K, D, X>, S, MethodOf[K], PathOf<K, P, IdOf<D>>, K> & {
  readonly response: {
    readonly status: K extends 'create' ? 201 : 200;
    readonly description: string;
    readonly schema: ResponseSchema<K, D['record']>;
  };
} & ParamsPart<PathOf<K, P, IdOf<D>>> &
  QueryPart<K, D> &
  BodyPart<K, D>;

/** One derived action: `POST <item path>/<verb>`, answering the record. */
export type ActionEndpoint<
  A extends string,
  S extends ApiSurface,
  P extends string,
  D extends ResourceDeclaration,
  X extends string,
> = DerivedEndpoint<Prefixed<X, `${A}${D['name']}`>, S, 'post', `${P}/{${IdOf<D>}}/${A}`, A> & {
  readonly params: IdParams<ParamNames<`${P}/{${IdOf<D>}}`>>;
  readonly response: {
    readonly status: 200;
    readonly description: string;
    readonly schema: ResponseSchema<'get', D['record']>;
  };
};

/** A resource's endpoints keyed by operation id, as `apiEndpoints` holds them. */
export type ResourceEndpoints<
  S extends ApiSurface,
  P extends string,
  D extends ResourceDeclaration,
  X extends string,
> = {
  readonly [K in OperationsOf<D> & StandardOperation as OperationId<K, D, X>]: StandardEndpoint<K, S, P, D, X>;
} & {
  readonly [A in keyof D['actions'] & string as Prefixed<X, `${A}${D['name']}`>]: ActionEndpoint<A, S, P, D, X>;
};
