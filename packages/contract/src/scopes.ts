import type { ScopeRequirement } from './endpoint.js';
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

/**
 * The first scope of `requirement` the key lacks, in declaration order (what a 403 names); undefined when
 * it has them all. The reference server and the mock (`@vsf/testing`) both decide with this.
 */
export function firstMissingScope(scopes: ReadonlySet<string>, requirement: ScopeRequirement): Scope | undefined {
  const missing = requirement.all.find((s) => !scopes.has(s));
  if (missing) return missing;
  if (requirement.any && requirement.any.length > 0 && !requirement.any.some((s) => scopes.has(s))) {
    return requirement.any[0];
  }
  return undefined;
}
