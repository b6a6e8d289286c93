/** Resource names of the API's scopes; each exists as `read:<name>` and `write:<name>`. */
export const SCOPE_RESOURCES = [
  'cars',
  'customers',
  'contacts',
  'locations',
  'parking',
  'appointments',
  'communications',
  'campaigns',
  'templates',
  'forms',
  'social-events',
  'marketing-assets',
  'webhooks',
] as const;

export type ScopeResource = (typeof SCOPE_RESOURCES)[number];
export type Scope = `read:${ScopeResource}` | `write:${ScopeResource}`;

export const ALL_SCOPES: readonly Scope[] = SCOPE_RESOURCES.flatMap((r) => [
  `read:${r}` as const,
  `write:${r}` as const,
]);

export function isScope(value: string): value is Scope {
  return (ALL_SCOPES as readonly string[]).includes(value);
}

/** Scopes a read of `resource` needs. */
export function readScopes(resource: ScopeResource): Scope[] {
  return [`read:${resource}`];
}

/** Write access is never implied by read access: a write needs both. */
export function writeScopes(resource: ScopeResource): Scope[] {
  return [`read:${resource}`, `write:${resource}`];
}
