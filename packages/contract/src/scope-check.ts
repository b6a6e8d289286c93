import type { ScopeRequirement } from './endpoint.js';
import type { Scope } from './scopes.js';

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
