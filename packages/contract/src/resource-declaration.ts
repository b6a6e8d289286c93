import type { ApiSurface, FieldScope, ScopeRequirement } from './endpoint.js';
import type { Field } from './field-table.js';
import type { ScopeResource } from './scopes.js';
import type { z } from './zod.js';

/** The five operations a resource gets by name; anything else is an action or a hand-written `defineEndpoint`. */
export type StandardOperation = 'list' | 'get' | 'create' | 'update' | 'delete';

/** What reading and what writing a resource needs. */
export interface ResourceScopes {
  readonly read: ScopeRequirement;
  readonly write: ScopeRequirement;
}

/** What one operation says beyond what its resource implies; each field replaces the derived one. */
export interface OperationOptions {
  readonly summary?: string;
  readonly description?: string;
  /** The success response's description. */
  readonly response?: string;
  readonly scopes?: ScopeRequirement;
  readonly fieldScopes?: readonly FieldScope[];
  readonly references?: readonly string[];
  /** A create whose body is an image upload also takes the bytes raw (the `binary-upload` extension). */
  readonly binaryUpload?: boolean;
  /** Statuses besides those `errorStatuses` already derives (a path id's 404 needs no declaration). */
  readonly errors?: readonly (409 | 413 | 415)[];
  /** A delete's 409 message while other records still refer to the record (implies `errors: [409]`). */
  readonly inUse?: string;
}

/** A `POST <item>/<verb>` that changes one record and answers it (`cancel`, `send`, `publish`). */
export interface ActionOptions extends OperationOptions {
  readonly summary: string;
}

/**
 * Where resources live, like Effect's `HttpApiGroup` or a ts-rest router: a group (surface, path prefix,
 * SDK namespace, default scope) or a parent resource, whose item path and namespace its children extend.
 */
export interface ResourceBase<S extends ApiSurface = ApiSurface, B extends string = string, X extends string = string> {
  readonly surface: S;
  /** Put before every operation id (`admin` makes `adminUpdateTeam`); none on the team API. */
  readonly operationPrefix: X;
  /** Path that a child's own path is appended to: a group's prefix, a parent's item path. */
  readonly base: B;
  readonly sdk: readonly string[];
  readonly scopes?: ResourceScopes;
  /** The parent record, named in its children's collection summaries and 404s. */
  readonly parent?: { readonly label: string; readonly noun: string };
}

export interface GroupDeclaration<S extends ApiSurface, P extends string, X extends string> {
  readonly surface: S;
  readonly prefix: P;
  readonly operationPrefix?: X;
  readonly sdk?: readonly string[];
  readonly scope?: ScopeResource | ResourceScopes;
}

/** One resource, declared once; `defineResource` derives its endpoints. */
export interface ResourceDeclaration extends Partial<Record<StandardOperation, OperationOptions>> {
  /** The operation ids' noun: `Car` names `listCars`, `getCar`, `createCar`, `updateCar`, `deleteCar`. */
  readonly name: string;
  /** The name's plural where the rule (`pluralOf`) does not make it: `People` for `Person`. */
  readonly plural?: string;
  /** The collection path below the group prefix or the parent's item path: `/cars`, `/audiences`. */
  readonly path: string;
  /** The item's path parameter; `<name>Id` (`carId`) unless given. */
  readonly id?: string;
  /** The SDK namespace below the group's or parent's; the last path segment in camelCase unless given. */
  readonly sdk?: string;
  /** The record's name in `<label> not found`; the name in words (`Parking zone`) unless given. */
  readonly label?: string;
  /** The record in summaries (`Get a parking zone`); the label with a lowercase initial unless given. */
  readonly title?: string;
  /** The record in response descriptions (`The zone`, `A page of zones`); the label's last word unless given. */
  readonly noun?: string;
  readonly scope?: ScopeResource | ResourceScopes;
  readonly record: z.ZodType;
  readonly createBody?: z.ZodType;
  readonly updateBody?: z.ZodType;
  /** Query filters of `list`, besides paging and `updatedAfter`. */
  readonly filters?: z.core.$ZodLooseShape;
  /** The field table the record, bodies, filters and references came from (`fieldTable`), when there is one. */
  readonly fields?: Readonly<Record<string, Field>>;
  /** The resource each reference points to, by field (`fieldTable`'s `referenceTargets`). */
  readonly referenceTargets?: Readonly<Record<string, string>>;
  /** An update body's fields (`fieldTable` gives them); the update body itself is `updateBody`. */
  readonly updateShape?: z.core.$ZodLooseShape;
  /** Body fields of both create and update that hold the id of another team record (`OperationOptions.references`). */
  readonly references?: readonly string[];
  /** The standard operations the resource has, each with its options (`create: {…}`); all five unless given. */
  readonly operations?: readonly StandardOperation[];
  /** `POST <item>/<verb>` operations by verb: `cancel` gives `cancelAppointment` and `client.appointments.cancel()`. */
  readonly actions?: Readonly<Record<string, ActionOptions>>;
}
