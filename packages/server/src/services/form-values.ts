import type { V1FormField } from '@vsf/contract';
import type { ValidationDetail } from '../errors/api-http-error.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// Digits with the punctuation people type; at least 3 digits so "+" or "()" alone is no number.
const PHONE = /^\+?[\d\s().-]{3,40}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** No answer: absent, null, an empty (or blank) string or an empty list. */
function isBlank(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

function isCalendarDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === text;
}

/** Why `value` is not an answer of the field's type, or undefined when it is. */
function typeProblem(field: V1FormField, value: unknown): string | undefined {
  switch (field.type) {
    case 'text':
    case 'textarea':
      return typeof value === 'string' ? undefined : 'Expected a string';
    case 'email':
      return typeof value === 'string' && EMAIL.test(value) ? undefined : 'Expected an email address';
    case 'phone':
      return typeof value === 'string' && PHONE.test(value) && (value.match(/\d/g)?.length ?? 0) >= 3
        ? undefined
        : 'Expected a phone number (digits, optionally with +, spaces, dashes, dots or parentheses)';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'Expected a number';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'Expected true or false';
    case 'date':
      return typeof value === 'string' && isCalendarDate(value) ? undefined : 'Expected a date as YYYY-MM-DD';
    case 'select':
      return typeof value === 'string' && field.options?.includes(value)
        ? undefined
        : `Expected one of: ${field.options?.join(', ')}`;
    case 'multiselect': {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || !field.options?.includes(v)))
        return `Expected a list of: ${field.options?.join(', ')}`;
      return new Set(value).size === value.length ? undefined : 'Each option may be chosen once';
    }
  }
}

/**
 * Every problem of a submission's `values` against the form's fields, one per key at `values.<key>`:
 * keys the form does not have, missing required answers, and answers of the wrong type.
 */
export function formValueProblems(fields: readonly V1FormField[], values: Record<string, unknown>): ValidationDetail[] {
  const problems: ValidationDetail[] = [];
  const byKey = new Map(fields.map((f) => [f.key, f]));
  for (const key of Object.keys(values)) {
    if (!byKey.has(key)) problems.push({ path: `values.${key}`, message: 'The form has no field with this key' });
  }
  for (const field of fields) {
    const value = answerOf(values, field.key);
    if (isBlank(value)) {
      if (field.required) problems.push({ path: `values.${field.key}`, message: `${field.label} is required` });
      continue;
    }
    const problem = typeProblem(field, value);
    if (problem) problems.push({ path: `values.${field.key}`, message: problem });
  }
  return problems;
}

/** The first non-blank string answer of a field of `type`, e.g. the respondent's email. */
export function firstAnswerOfType(
  fields: readonly V1FormField[],
  values: Record<string, unknown>,
  type: V1FormField['type'],
): string | undefined {
  for (const field of fields) {
    const value = answerOf(values, field.key);
    if (field.type === type && typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return undefined;
}

/** The answer sent for `key`: only an own property, so a field named `constructor` is not answered by Object. */
function answerOf(values: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(values, key) ? values[key] : undefined;
}
