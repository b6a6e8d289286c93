/** How a field is stored in a mirror's column. */
export type ColumnKind = 'text' | 'integer' | 'number' | 'boolean' | 'timestamp' | 'json';

export interface ColumnSpec {
  /** API field name (camelCase). */
  readonly field: string;
  /** SQL column name (snake_case). */
  readonly column: string;
  readonly kind: ColumnKind;
}

/** The list request a resource is read through: plain route data, as the SDK's `client.request` takes. */
export interface ListRoute {
  readonly operationId: string;
  readonly method: 'get';
  readonly path: string;
  readonly paginated: true;
}

export interface ResourceSpec {
  /** `cars`, `event_types`, `marketing_campaigns`: also the table name. */
  readonly name: string;
  /** The `resource` of this table's records in the events feed (`car`, `parking_zone`). */
  readonly event: string;
  readonly route: ListRoute;
  readonly columns: readonly ColumnSpec[];
  /** Soft deletes arrive as rows with `deletedAt` when the list is asked for them. */
  readonly includeDeleted: boolean;
  /**
   * A list nested under another resource's records (`/cars/{carId}/events`): there is no list of the
   * whole team, so it is read once per record of `resource` in the mirror, `param` naming it in the path.
   */
  readonly parent?: { readonly resource: string; readonly param: string };
}
