import { lowerInitial, pluralOf, SCOPE_RESOURCES, type ScopeResource, standardResources } from '@vsf/contract';

/** What a scope grants besides its resources' records, where the spec's scope table says more. */
const ALSO: Partial<Record<ScopeResource, string>> = {
  cars: 'read also lists event types',
  appointments: 'read also lists event types',
  campaigns: 'read also covers the marketing calendar',
  'social-events': 'read also covers the marketing calendar',
  webhooks: 'read also lists their delivery logs; an endpoint delivers only events its creator could read',
};

/** `a, b and c`. */
const sentence = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/** The records a scope's read covers, read off the contract: every resource whose reads need it alone. */
function recordsOf(scope: ScopeResource): string[] {
  return (
    [...standardResources().values()]
      .filter((resource) => {
        const read = resource.endpoints.get ?? resource.endpoints.list;
        return read?.scopes.all?.length === 1 && read.scopes.all[0] === `read:${scope}`;
      })
      // A parent before what nests in it: `Social events, RSVP options, …`, `Threads and messages`.
      .sort((a, b) => a.namespace.split('.').length - b.namespace.split('.').length)
      .map((resource) => pluralOf(lowerInitial(resource.label)))
  );
}

function grantOf(scope: ScopeResource): string {
  const records = sentence(recordsOf(scope));
  const text = [records || scope, ALSO[scope]].filter(Boolean).join('; ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * What each scope grants, so the admin page can say what a checkbox gives away: the records of every
 * resource declared under the scope (a new resource appears here with no line written), then what the
 * scope's read also covers.
 */
export const SCOPE_GRANTS: Record<ScopeResource, string> = Object.fromEntries(
  SCOPE_RESOURCES.map((scope) => [scope, grantOf(scope)]),
) as Record<ScopeResource, string>;
