/** One standard resource as the generic commands read it (src/generated/resource-commands.ts). */
export interface ResourceCommand {
  /** The command path: the SDK namespace in kebab-case (`marketing social-events rsvps`). */
  readonly command: readonly string[];
  /** The record in words (`Parking zone`). */
  readonly label: string;
  /** Its plural in words, by the contract's rule (`parking zones`). */
  readonly plural: string;
  /** Path parameters of the collection: the parents' ids, given first on every command. */
  readonly parents: readonly string[];
  /** The item's path parameter (`templateId`). */
  readonly item: string;
  /** Operation ids by standard operation: `list`, `get`, `create`, `update`, `delete`. */
  readonly operations: Readonly<Partial<Record<'list' | 'get' | 'create' | 'update' | 'delete', string>>>;
  /** The record fields a table shows between ID and UPDATED. */
  readonly columns: readonly string[];
}
