import type { Options } from 'tsup';

/**
 * Every published build escapes non-ASCII text (’ and — in messages): Node keeps an all-ASCII module's
 * source at one byte a character and any other at two, for the process's life (~0.5 MB of a `vsf` run).
 */
export const asciiOutput: Pick<Options, 'esbuildOptions'> = {
  esbuildOptions(options) {
    options.charset = 'ascii';
  },
};
