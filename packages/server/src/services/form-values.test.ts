import type { V1FormField } from '@vsf/contract';
import { describe, expect, it } from 'vitest';
import { firstAnswerOfType, formValueProblems } from './form-values.js';

const field = (type: V1FormField['type'], options: string[] | null = null): V1FormField => ({
  key: 'answer',
  label: 'Answer',
  type,
  required: true,
  options,
});

const problemOf = (f: V1FormField, value: unknown) => formValueProblems([f], { answer: value })[0]?.message;

describe('form values', () => {
  it.each([
    ['text', null, 'hello'],
    ['textarea', null, 'line one\nline two'],
    ['email', null, 'ada@example.com'],
    ['phone', null, '+44 20 7946 0958'],
    ['number', null, -2.5],
    ['boolean', null, false],
    ['date', null, '2028-02-29'],
    ['select', ['a', 'b'], 'b'],
    ['multiselect', ['a', 'b', 'c'], ['c', 'a']],
  ] as const)('accepts a %s answer', (type, options, value) => {
    expect(problemOf(field(type, options ? [...options] : null), value)).toBeUndefined();
  });

  it.each([
    ['text', null, 5],
    ['email', null, 'ada@'],
    ['phone', null, '++--'],
    ['number', null, '5'],
    ['boolean', null, 'true'],
    ['date', null, '2027-02-29'],
    ['date', null, '2026-01-01T00:00:00Z'],
    ['select', ['a', 'b'], 'c'],
    ['multiselect', ['a', 'b'], ['a', 'z']],
    ['multiselect', ['a', 'b'], 'a'],
  ] as const)('refuses a %s answer %j', (type, options, value) => {
    expect(problemOf(field(type, options ? [...options] : null), value)).toEqual(expect.any(String));
  });

  it('lets optional fields go unanswered and reports unknown keys once each', () => {
    const optional = { ...field('number'), required: false };
    expect(formValueProblems([optional], { answer: null, extra: 1, other: 2 })).toEqual([
      { path: 'values.extra', message: 'The form has no field with this key' },
      { path: 'values.other', message: 'The form has no field with this key' },
    ]);
  });

  it('finds the first non-blank answer of a type', () => {
    const fields: V1FormField[] = [
      { ...field('email'), key: 'work' },
      { ...field('email'), key: 'home' },
    ];
    expect(firstAnswerOfType(fields, { work: ' ', home: ' me@example.com ' }, 'email')).toBe('me@example.com');
    expect(firstAnswerOfType(fields, {}, 'phone')).toBeUndefined();
  });
});
