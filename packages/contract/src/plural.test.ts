import { describe, expect, expectTypeOf, it } from 'vitest';
import { type PluralOf, pluralOf } from './plural.js';

describe('pluralOf', () => {
  it.each([
    ['Car', 'Cars'],
    ['KeyBox', 'KeyBoxes'],
    ['Address', 'Addresses'],
    ['Batch', 'Batches'],
    ['Wish', 'Wishes'],
    ['Fax', 'Faxes'],
    ['Category', 'Categories'],
    ['Day', 'Days'],
    ['Key', 'Keys'],
    ['key box', 'key boxes'],
    ['parking zone', 'parking zones'],
  ])('%s → %s', (word, plural) => {
    expect(pluralOf(word)).toBe(plural);
  });

  it('the type says what the function does', () => {
    expectTypeOf<PluralOf<'KeyBox'>>().toEqualTypeOf<'KeyBoxes'>();
    expectTypeOf<PluralOf<'Category'>>().toEqualTypeOf<'Categories'>();
    expectTypeOf<PluralOf<'Key'>>().toEqualTypeOf<'Keys'>();
    expectTypeOf<PluralOf<'Day'>>().toEqualTypeOf<'Days'>();
    expectTypeOf<PluralOf<'Car'>>().toEqualTypeOf<'Cars'>();
    expectTypeOf<PluralOf<'Batch'>>().toEqualTypeOf<'Batches'>();
  });
});
