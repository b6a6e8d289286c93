const ASCII_FOR: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u2014': '-',
  '\u2013': '-',
  '\u2026': '...',
  '\u2192': '->',
  '\u00d7': 'x',
  '\u2265': '>=',
  '\u2264': '<=',
};

/**
 * Doc comments in ASCII: a build keeps them (esbuild leaves comments on class members), and one non-ASCII
 * character anywhere makes Node hold the whole module's source at two bytes a character (~0.5 MB of a
 * `vsf` run). Strings are escaped by the build itself (`charset: 'ascii'`).
 */
export function asciiText(text: string): string {
  const ascii = text.replace(
    /[\u2018\u2019\u201c\u201d\u2014\u2013\u2026\u2192\u00d7\u2265\u2264]/g,
    (c) => ASCII_FOR[c] ?? c,
  );
  return ascii.replace(/[^ -~\t]/g, (c) => `&#x${c.codePointAt(0)?.toString(16)};`);
}

/** A `/** … *\/` block of `lines` (an empty string is a blank line), or nothing when there is no text. */
export function docComment(lines: readonly string[], indent: string): string[] {
  const text = lines.flatMap((line) => line.split('\n'));
  while (text.at(-1) === '') text.pop();
  if (text.length === 0) return [];
  if (text.length === 1) return [`${indent}/** ${asciiText(text[0] as string).replace(/\*\//g, '*\\/')} */`];
  const body = text.map((l) => `${indent} *${l ? ` ${asciiText(l).replace(/\*\//g, '*\\/')}` : ''}`);
  return [`${indent}/**`, ...body, `${indent} */`];
}
