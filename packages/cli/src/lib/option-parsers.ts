import { InvalidArgumentError } from 'commander';

// Commander argument parsers: a bad value is a usage error (exit 2) naming what is accepted, caught
// before any request, rather than a server 400 (exit 1) after one.

const TIMESTAMP_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** An ISO 8601 time with a timezone offset, as the API's `updatedAfter` takes it. */
export function parseTimestamp(value: string): string {
  if (!TIMESTAMP_WITH_OFFSET.test(value) || Number.isNaN(Date.parse(value))) {
    throw new InvalidArgumentError(
      'Expected an ISO 8601 time with a timezone offset, e.g. 2026-01-31T00:00:00Z or 2026-01-31T08:00:00+02:00.',
    );
  }
  return value;
}

/** A repeatable option's values in the order given, e.g. `--set a=1 --set b=2`. */
export const collectPairs = (value: string, previous: string[] = []): string[] => [...previous, value];

/** A whole number from `min` up, e.g. `--max-retries 6`. */
export function wholeNumber(min: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min) {
      throw new InvalidArgumentError(`Expected a whole number ≥ ${min}.`);
    }
    return n;
  };
}

/** A number of seconds ≥ 0, fractions allowed, e.g. `--max-retry-delay 0.5`. */
export function seconds(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0)
    throw new InvalidArgumentError('Expected seconds ≥ 0, e.g. 30 or 0.5.');
  return n;
}

/** A comma-separated list of names, each one of `valid`. */
export function nameList(valid: () => string[]): (value: string) => string[] {
  return (value) => {
    const names = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const known = valid();
    const unknown = names.filter((n) => !known.includes(n));
    if (names.length === 0 || unknown.length > 0) {
      throw new InvalidArgumentError(
        `${unknown.length > 0 ? `Unknown: ${unknown.join(', ')}. ` : ''}Valid values: ${known.join(', ')}.`,
      );
    }
    return names;
  };
}
