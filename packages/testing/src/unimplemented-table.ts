import { PARTLY_IMPLEMENTED, UNIMPLEMENTED_OPERATIONS } from './unimplemented.js';

/** The README's table of what the mock answers 501, made from the lists the mock itself follows. */
export function unimplementedTable(): string {
  const rows = [
    ...Object.entries(UNIMPLEMENTED_OPERATIONS).map(([operation, why]) => `| \`${operation}\` | always | ${why} |`),
    ...Object.entries(PARTLY_IMPLEMENTED).map(
      ([operation, what]) => `| ${operation === '*' ? 'any list' : `\`${operation}\``} | ${what} | |`,
    ),
  ];
  return ['| operation | answers 501 | why |', '|-|-|-|', ...rows].join('\n');
}
