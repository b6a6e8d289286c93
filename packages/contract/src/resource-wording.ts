import { pluralOf } from './plural.js';
import type { ResourceBase, ResourceDeclaration, StandardOperation } from './resource-declaration.js';

/** `an` before a vowel sound, acronyms (`an RSVP`) included. */
function article(phrase: string): string {
  const acronym = /^[A-Z]{2,}\b/.test(phrase);
  return `${(acronym ? /^[AEFHILMNORSX]/ : /^[aeiou]/i).test(phrase) ? 'an' : 'a'} ${phrase}`;
}

/** `Parking zone` → `parking zone`; an acronym (`RSVP option`) keeps its capitals. */
export const lowerInitial = (text: string) =>
  /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
/** `ParkingZone` → `Parking zone`. */
const words = (name: string) => name.replace(/(?<=[a-z])([A-Z])/g, (c) => ` ${c.toLowerCase()}`);
/** `/parking-zones` → `parkingZones`. */
const camel = (path: string) => (path.split('/').pop() ?? '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** How a resource is named in ids, the SDK, errors and docs, each derived unless the declaration gives it. */
export function resourceNames(declaration: ResourceDeclaration, parent: ResourceBase['parent']) {
  const label = declaration.label ?? words(declaration.name);
  const title = declaration.title ?? lowerInitial(label);
  // In the parent's possessive the parent is not named twice: `List a car’s events`, not `car events`.
  const own =
    parent && title.startsWith(`${lowerInitial(parent.label)} `) ? title.slice(parent.label.length + 1) : title;
  const noun = declaration.noun ?? lowerInitial(label.split(' ').pop() as string);
  // A declared plural replaces the last word, which is the one that takes the plural (`key boxes`).
  const lastWord = declaration.plural && lowerInitial(words(declaration.plural).split(' ').pop() as string);
  const plural = (phrase: string) => (lastWord ? phrase.replace(/\S+$/, lastWord) : pluralOf(phrase));
  return {
    /** The operation ids' plural noun: `KeyBoxes` in `listKeyBoxes`. */
    plural: declaration.plural ?? pluralOf(declaration.name),
    // Exactly as the type `IdOf` spells it (`Uncapitalize`), so the path the types promise is the one served.
    id: declaration.id ?? `${declaration.name.charAt(0).toLowerCase()}${declaration.name.slice(1)}Id`,
    sdk: declaration.sdk ?? camel(declaration.path),
    label,
    title,
    noun,
    listSummary: parent ? `List ${article(parent.noun)}’s ${plural(own)}` : `List ${plural(title)}`,
    nouns: plural(noun),
  };
}

/** The summary and success description an operation gets unless it gives its own. */
export function standardWording(operation: StandardOperation, names: ReturnType<typeof resourceNames>) {
  const { title, noun } = names;
  if (operation === 'list') return { summary: names.listSummary, response: `A page of ${names.nouns}` };
  const verb = `${operation.charAt(0).toUpperCase()}${operation.slice(1)}`;
  return { summary: `${verb} ${article(title)}`, response: operation === 'delete' ? 'Deleted' : `The ${noun}` };
}
