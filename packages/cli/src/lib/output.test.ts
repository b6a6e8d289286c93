import { describe, expect, it } from 'vitest';
import { redactKey } from './config-store.js';
import { columns as columnsOf, renderTable } from './output.js';

const rows = [
  { id: 'a1', name: 'Mustang', note: null },
  { id: 'b22', name: 'Model\tT', note: 'x' },
];
const columns = [
  { header: 'ID', value: (r: (typeof rows)[number]) => r.id },
  { header: 'NAME', value: (r: (typeof rows)[number]) => r.name },
  { header: 'NOTE', value: (r: (typeof rows)[number]) => r.note },
];

describe('renderTable', () => {
  it('aligns columns on a terminal', () => {
    expect(renderTable(rows, columns, true)).toBe('ID   NAME     NOTE\na1   Mustang\nb22  Model T  x\n');
  });
  it('writes TSV when piped, with tabs inside values flattened', () => {
    expect(renderTable(rows, columns, false)).toBe('ID\tNAME\tNOTE\na1\tMustang\t\nb22\tModel T\tx\n');
  });
});

describe('columns', () => {
  it('shows a named field as it is and a function’s value, in the order given', () => {
    const made = columnsOf<(typeof rows)[number]>({ ID: 'id', 'NAME NOTE': (r) => `${r.name} ${r.note ?? '-'}` });
    expect(renderTable(rows, made, false)).toBe('ID\tNAME NOTE\na1\tMustang -\nb22\tModel T x\n');
  });
});

describe('redactKey', () => {
  it('keeps only the public prefix', () => {
    expect(redactKey('vsf_abcdefghijkl.secretsecret')).toBe('vsf_abcdefghijkl.****');
    expect(redactKey(undefined)).toBe('(none)');
  });
});
