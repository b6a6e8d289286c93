import type { Scope, ScopeRequirement } from '@vsf/contract';

/** The first scope of `requirement` the key lacks, in declaration order, as the server names it in its 403. */
export function firstMissingScope(scopes: ReadonlySet<string>, requirement: ScopeRequirement): Scope | undefined {
  const missing = requirement.all.find((s) => !scopes.has(s));
  if (missing) return missing;
  if (requirement.any && requirement.any.length > 0 && !requirement.any.some((s) => scopes.has(s))) {
    return requirement.any[0];
  }
  return undefined;
}
