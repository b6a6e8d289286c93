/**
 * The one plural rule of resource names, at run time and in types alike: `Car` → `Cars`, `KeyBox` →
 * `KeyBoxes`, `Category` → `Categories`, `Day` → `Days`. Operation ids (`listKeyBoxes`), summaries
 * (`List key boxes`), the server's tables (`key_boxes`) and the sync's mirrors all go through it; a
 * declaration's `plural` replaces it for an irregular word (`Person` → `People`).
 */
export function pluralOf(word: string): string {
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(word)) return `${word}es`;
  return `${word}s`;
}

type Vowel = 'a' | 'e' | 'i' | 'o' | 'u';

/** `pluralOf`, as a type: what the SDK and the handler map see is the name the server serves. */
export type PluralOf<W extends string> = W extends `${string}${Vowel}y`
  ? `${W}s`
  : W extends `${infer Stem}y`
    ? `${Stem}ies`
    : W extends `${string}${'s' | 'x' | 'z' | 'ch' | 'sh'}`
      ? `${W}es`
      : `${W}s`;
